import ArgumentParser
import SesameClient

struct SignInIdpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-in-idp",
        abstract: "Sign in with a federated identity (google.com, apple.com, …) from the provider's token.",
        discussion: """
            When the account has a second factor, asks for the code from the authenticator app (or reads \
            it with --code-stdin).
            """)

    @OptionGroup var identity: FederatedTokenOptions

    @OptionGroup var code: CodeOptions
    @OptionGroup var options: CommonOptions

    func run() async throws {
        let prompt = SecondFactorPrompt(fromStandardInput: code.codeStdin)
        let result = try await options.withClient { client in
            try await SignInOverAccount.refuse(client)
            return try await prompt.signIn(client) {
                try await client.signInWithIdp(
                    providerId: identity.providerId, idToken: identity.idToken, accessToken: identity.accessToken)
            }
        }
        options.output(json: SignInResultText.json(result), text: SignInResultText.text(result))
    }
}
