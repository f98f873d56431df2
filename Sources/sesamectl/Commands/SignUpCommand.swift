import ArgumentParser
import SesameClient

struct SignUpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-up",
        abstract: "Create an account with an email and a password; a guest keeps its uid and data.",
        discussion:
            "The password is read from the terminal (asked twice) or, with --password-stdin, from standard input.")

    @Argument(help: "The account's email address.")
    var email: String

    @Option(name: .long, help: ArgumentHelp("Also claim this username for the account.", valueName: "name"))
    var username: String?

    @OptionGroup var password: PasswordOptions
    @OptionGroup var options: CommonOptions

    func run() async throws {
        let state = try await options.withClient { client in
            // Reach the daemon before asking for a password that could not be used.
            _ = try await client.hello()
            let secret = try PasswordReader.read(
                prompt: "Password for \(email): ", fromStandardInput: password.passwordStdin, confirm: true)
            return try await client.createAccount(email: email, password: secret, username: username)
        }
        options.output(json: state.json, text: StatusRenderer.oneLine(state))
    }
}
