import ArgumentParser
import SesameClient

struct MergesListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the pending merges (id, guest uid -> account uid, since when).")

    @OptionGroup var options: CommonOptions

    func run() async throws {
        let state = try await options.withClient(waiting: .daemon) { try await $0.state() }
        options.output(
            json: "[" + state.pendingMerges.map(\.json.jsonString).joined(separator: ",") + "]",
            text: StatusRenderer.mergeLines(state.pendingMerges))
    }
}
