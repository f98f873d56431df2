import ArgumentParser
import SesameClient

struct DeleteAccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete-account",
        abstract: "Delete the signed-in account (guest or not) at the backend, for good; a fresh guest follows.")

    @OptionGroup var options: CommonOptions

    func run() async throws {
        let state = try await options.withClient { try await $0.deleteAccount() }
        options.output(json: state.json, text: "account deleted; now " + StatusRenderer.oneLine(state))
    }
}
