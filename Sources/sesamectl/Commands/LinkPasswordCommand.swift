import ArgumentParser
import SesameClient

struct LinkPasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "password",
        abstract: "Add an email and password.",
        discussion:
            "The password is read from the terminal (asked twice) or, with --password-stdin, from standard input.")

    @Argument(help: "The email address.")
    var email: String

    @OptionGroup var password: PasswordOptions
    @OptionGroup var options: CommonOptions

    func run() async throws {
        let state = try await options.withClient { client in
            // Reach the daemon before asking for a password that could not be used.
            _ = try await client.hello()
            let secret = try PasswordReader.read(
                prompt: "Password for \(email): ", fromStandardInput: password.passwordStdin, confirm: true)
            return try await client.linkCredential(.password(email: email, password: secret))
        }
        options.output(json: state.json, text: StatusRenderer.oneLine(state))
    }
}
