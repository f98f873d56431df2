import ArgumentParser
import Foundation

/// `sesamectl`: the command-line client of `sesamed`.
@main
struct SesameCtl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sesamectl",
        abstract: "Talk to sesamed, the daemon that owns this machine's account session.",
        discussion: """
            Every program on this machine shares one session: a guest (anonymous) account at first, \
            which you can turn into a real account without losing its data. Options such as --socket \
            and --json go after the command name.

            Exit status: 0 on success, 1 on an authentication or state error (the message says what to \
            do next), 2 on bad usage, 69 when sesamed cannot be reached or does not answer within --timeout.
            """,
        subcommands: [
            StatusCommand.self, TokenCommand.self, WatchCommand.self,
            SignUpCommand.self, SignInCommand.self, SendLinkCommand.self, CompleteLinkCommand.self,
            SignInIdpCommand.self, LinkCommand.self, UnlinkCommand.self, SignOutCommand.self,
            UsernameCommand.self, ResetPasswordCommand.self, VerifyEmailCommand.self,
            UpdateProfileCommand.self, ReloadCommand.self, MergesCommand.self, DeleteAccountCommand.self,
            HelpManCommand.self,
        ])

    /// Like ArgumentParser's `main()`, but bad usage exits with 2 (DESIGN.md), not 64.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if exitCode(for: error) == .validationFailure {
                StandardError.print(usageMessage(message(for: error)))
                Foundation.exit(ExitStatus.usage.rawValue)
            }
            exit(withError: error)
        }
    }

    /// One line for a usage error: ArgumentParser's message without its "Error: " prefix,
    /// and where to read more.
    static func usageMessage(_ message: String) -> String {
        var text = message.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("Error: ") { text.removeFirst("Error: ".count) }
        text = text.split(separator: "\n").first.map(String.init) ?? text
        if let first = text.first, first.isUppercase, text.dropFirst().first?.isLowercase == true {
            text = first.lowercased() + text.dropFirst()
        }
        return text + " (see --help)"
    }
}
