import ArgumentParser
import SesameClient

struct LinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link",
        abstract: "Add a sign-in method to the current user (a guest becomes an account and keeps its uid).",
        subcommands: [LinkPasswordCommand.self, LinkEmailLinkCommand.self, LinkIdpCommand.self])

    /// Without a subcommand: bad usage (exit status 2), not the help text.
    func run() async throws {
        throw ValidationError(
            "missing subcommand: `sesamectl link password|email-link|idp …` (`sesamectl link --help` says more)")
    }
}
