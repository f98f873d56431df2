import ArgumentParser
import SesameClient

struct SignInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-in",
        abstract: "Sign in to an existing account with an email or username and its password.",
        discussion: """
            From a guest, the guest's data is merged into the account (see `sesamectl merges`). The \
            password is read from the terminal or, with --password-stdin, from standard input.
            """)

    @Argument(help: ArgumentHelp("The account's email address or username.", valueName: "email|username"))
    var identifier: String

    @OptionGroup var password: PasswordOptions
    @OptionGroup var options: CommonOptions

    func run() async throws {
        let result = try await options.withClient { client in
            // Reach the daemon before asking for a password that could not be used.
            _ = try await client.hello()
            let secret = try PasswordReader.read(
                prompt: "Password for \(identifier): ", fromStandardInput: password.passwordStdin)
            return try await client.signIn(identifier: identifier, password: secret)
        }
        options.output(json: SignInResultText.json(result), text: SignInResultText.text(result))
    }
}
