import ArgumentParser
import SesameClient

struct MergesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merges",
        abstract: "List or complete pending merges of a guest's data into an account.",
        subcommands: [MergesListCommand.self, MergesCompleteCommand.self],
        defaultSubcommand: MergesListCommand.self)
}
