import ArgumentParser
import SesameClient

struct UsernameCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "username",
        abstract: "Set or check a username (you can then sign in with it instead of the email).",
        subcommands: [UsernameSetCommand.self, UsernameCheckCommand.self])

    /// Without a subcommand: bad usage (exit status 2), not the help text.
    func run() async throws {
        throw ValidationError("missing subcommand: `sesamectl username set NAME` or `sesamectl username check NAME`")
    }
}
