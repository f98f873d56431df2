import ArgumentParser
import SesameClient

struct SignInIdpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-in-idp",
        abstract: "Sign in with a federated identity (google.com, apple.com, …) from the provider's token.")

    @OptionGroup var identity: FederatedTokenOptions

    @OptionGroup var options: CommonOptions

    func run() async throws {
        let result = try await options.withClient {
            try await $0.signInWithIdp(
                providerId: identity.providerId, idToken: identity.idToken, accessToken: identity.accessToken)
        }
        options.output(json: SignInResultText.json(result), text: SignInResultText.text(result))
    }
}
