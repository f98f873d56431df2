import ArgumentParser
import SesameClient

struct MergesCompleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "complete",
        abstract: "Mark a merge done once the guest's data has moved; the daemon then deletes the guest account.")

    @Argument(help: ArgumentHelp("The merge's id, from `sesamectl merges list`.", valueName: "id"))
    var mergeId: String

    @OptionGroup var options: CommonOptions

    func run() async throws {
        let state = try await options.withClient { try await $0.completeMerge(mergeId: mergeId) }
        options.output(json: state.json, text: "merge \(mergeId) completed; \(state.pendingMerges.count) pending")
    }
}
