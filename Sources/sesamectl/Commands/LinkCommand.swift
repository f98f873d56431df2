import ArgumentParser
import SesameClient

struct LinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link",
        abstract: "Add a sign-in method to the current user (a guest becomes an account and keeps its uid).",
        subcommands: [LinkPasswordCommand.self, LinkEmailLinkCommand.self, LinkIdpCommand.self])
}
