import ArgumentParser
import SesameClient

struct SignInIdpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-in-idp",
        abstract: "Sign in with a federated identity (google.com, apple.com, …) from the provider's token.")

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
        let result = try await options.withClient {
            try await $0.signInWithIdp(providerId: providerId, idToken: idToken, accessToken: accessToken)
        }
        options.output(json: SignInResultText.json(result), text: SignInResultText.text(result))
    }
}
