import ArgumentParser
import Foundation
import SesameClient

struct ReloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reload",
        abstract: "Read the account's profile from the backend again (e.g. after verifying the email).")

    @OptionGroup var options: CommonOptions

    func run() async throws {
        let state = try await options.withClient { try await $0.reload() }
        options.output(json: state.json, text: StatusRenderer.render(state, now: Date()))
    }
}
