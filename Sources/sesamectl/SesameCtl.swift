import ArgumentParser
import Foundation
import SesameLocalAPI

/// `sesamectl`: the command-line client of `sesamed`.
@main
struct SesameCtl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sesamectl",
        abstract: "Talk to sesamed, the daemon that owns this machine's account session.",
        discussion: """
            Every program on this machine shares one session: a guest (anonymous) account at first, \
            which you can turn into a real account without losing its data. Start with `sesamectl status`. \
            The options --socket, --timeout and --json go before or after the command name.

            Exit status: 0 on success, 1 on an authentication or state error (the message says what to \
            do next), 2 on bad usage, 69 when sesamed cannot be reached or does not answer within --timeout.
            """,
        version: versionText,
        subcommands: [
            StatusCommand.self, TokenCommand.self, ExecCommand.self, CredentialCommand.self, WatchCommand.self,
            SignUpCommand.self, SignInCommand.self, SendLinkCommand.self, CompleteLinkCommand.self,
            SignInIdpCommand.self, LinkCommand.self, UnlinkCommand.self, SignOutCommand.self,
            UsernameCommand.self, ResetPasswordCommand.self, VerifyEmailCommand.self,
            UpdateProfileCommand.self, ReloadCommand.self, MergesCommand.self, MfaCommand.self, ReauthCommand.self,
            ChangePasswordCommand.self, ChangeEmailCommand.self, DeleteAccountCommand.self, AccessCommand.self,
            MetricsCommand.self,
            HelpManCommand.self,
        ])

    static let versionText = "sesamectl \(SesameVersion.current)"

    /// Like ArgumentParser's `main()`, but bad usage exits with 2 (DESIGN.md), not 64; global
    /// options may come before the command, and an unknown command gets a suggestion.
    static func main() async {
        let arguments: [String]
        switch commandLine.resolve(Array(CommandLine.arguments.dropFirst())) {
        case .parse(let resolved):
            arguments = resolved
        case .unknownCommand(let word, let path, let suggestion):
            StandardError.print(CommandLineArguments.message(word: word, path: path, suggestion: suggestion))
            Foundation.exit(ExitStatus.usage.rawValue)
        }
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if exitCode(for: error) == .validationFailure {
                StandardError.print(usageMessage(message(for: error), command: commandWords(arguments)))
                Foundation.exit(ExitStatus.usage.rawValue)
            }
            exit(withError: error)
        }
    }

    /// The command names (and their subcommands), for ``CommandLineArguments``.
    static var commandLine: CommandLineArguments {
        var commands: [String: [String]] = ["help": []]
        for command in configuration.subcommands {
            let name = command.configuration.commandName ?? "\(command)"
            commands[name] = command.configuration.subcommands.compactMap { $0.configuration.commandName }
        }
        return CommandLineArguments(commands: commands)
    }

    /// The command's words at the start of `arguments` (`["username", "set"]`), for the hint
    /// of a usage error.
    static func commandWords(_ arguments: [String]) -> [String] {
        let table = commandLine.commands
        guard let first = arguments.first, let subcommands = table[first] else { return [] }
        if arguments.count > 1, subcommands.contains(arguments[1]) { return [first, arguments[1]] }
        return [first]
    }

    /// One line for a usage error: ArgumentParser's message without its "Error: " prefix; for
    /// the parser's own errors (an unknown option, a missing argument), where to read the
    /// command's usage. sesamectl's own usage messages say what to do, so they get no hint.
    static func usageMessage(_ message: String, command: [String] = []) -> String {
        var text = message.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("Error: ") { text.removeFirst("Error: ".count) }
        text = text.split(separator: "\n").first.map(String.init) ?? text
        let fromParser = parserErrorPrefixes.contains { text.hasPrefix($0) } || text.contains("unexpected arguments")
        if let first = text.first, first.isUppercase, text.dropFirst().first?.isLowercase == true {
            text = first.lowercased() + text.dropFirst()
        }
        guard fromParser else { return text }
        return text + " (see `" + (["sesamectl"] + command + ["--help"]).joined(separator: " ") + "`)"
    }

    /// How ArgumentParser's own usage errors begin.
    static let parserErrorPrefixes = [
        "Unknown option", "Invalid option", "Missing value for", "Missing expected argument", "Missing one of",
        "Unexpected argument", "The value '", "Missing required subcommand",
    ]
}
