import ArgumentParser
import SesameClient

struct LinkIdpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "idp",
        abstract: "Add a federated identity (google.com, apple.com, …).")

    @Argument(help: ArgumentHelp("The provider id, e.g. google.com.", valueName: "provider"))
    var providerId: String

    @Option(name: .long, help: ArgumentHelp("The provider's ID token.", valueName: "token"))
    var idToken: String?

    @Option(name: .long, help: ArgumentHelp("The provider's access token.", valueName: "token"))
    var accessToken: String?

    @OptionGroup var options: CommonOptions

    func validate() throws {
        if (idToken == nil) == (accessToken == nil) {
            throw ValidationError("pass exactly one of --id-token and --access-token")
        }
    }

    func run() async throws {
        let state = try await options.withClient {
            try await $0.linkCredential(.federated(providerId: providerId, idToken: idToken, accessToken: accessToken))
        }
        options.output(json: state.json, text: StatusRenderer.oneLine(state))
    }
}
