import ArgumentParser
import SesameClient

struct ResetPasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset-password",
        abstract: "Email a password-reset link to the account of an email or username.")

    @Argument(help: ArgumentHelp("The account's email address or username.", valueName: "email|username"))
    var identifier: String

    @OptionGroup var options: CommonOptions

    func run() async throws {
        try await options.withClient { try await $0.sendPasswordReset(identifier: identifier) }
        options.output(json: "{}", text: "sent a password-reset email for \(identifier)")
    }
}
