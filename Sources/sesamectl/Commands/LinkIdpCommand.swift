import ArgumentParser
import SesameClient

struct LinkIdpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "idp",
        abstract: "Add a federated identity (google.com, apple.com, …).")

    @OptionGroup var identity: FederatedTokenOptions

    @OptionGroup var options: CommonOptions

    func run() async throws {
        let state = try await options.withClient {
            try await $0.linkCredential(
                .federated(
                    providerId: identity.providerId, idToken: identity.idToken, accessToken: identity.accessToken))
        }
        options.output(json: state.json, text: StatusRenderer.oneLine(state))
    }
}
