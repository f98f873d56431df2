import ArgumentParser
import SesameClient

struct ChangePasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "change-password",
        abstract: "Change the signed-in account's password.",
        discussion: """
            Asks for the new password twice at the terminal (or reads it once with --password-stdin). \
            The backend may want a recent sign-in first: then run `sesamectl reauth` and change it again.
            """)

    @OptionGroup var password: PasswordOptions
    @OptionGroup var options: CommonOptions

    func run() async throws {
        try await options.withClient(context: .changePassword) { client in
            // Reach the daemon before asking for a password that could not be used.
            _ = try await client.hello()
            let secret = try PasswordReader.read(
                prompt: "New password: ", fromStandardInput: password.passwordStdin, confirm: true)
            try await client.changePassword(newPassword: secret)
        }
        options.output(json: "{}", text: "password changed")
    }
}

struct ChangeEmailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "change-email",
        abstract: "Change the account's email address, once the new address confirms it.",
        discussion: """
            The backend mails a confirmation to the new address; the account keeps its old address \
            until the link in that mail is opened (`sesamectl status` shows the pending address until \
            then). The backend may want a recent sign-in first: then run `sesamectl reauth` and try again.
            """)

    @Argument(help: ArgumentHelp("The new email address.", valueName: "new-email"))
    var newEmail: String

    @OptionGroup var options: CommonOptions

    func run() async throws {
        let pending = try await options.withClient { try await $0.changeEmail(newEmail: newEmail) }
        options.output(
            json: JSONValue.object(["pendingEmail": .string(pending)]),
            text: "sent a confirmation to \(pending): the address changes once you open the link in that mail "
                + "(pending email: \(pending))")
    }
}
