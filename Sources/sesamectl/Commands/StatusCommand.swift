import ArgumentParser
import SesameClient
import Foundation

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the session: status, uid, sign-in methods, email, username, token, connectivity, merges.",
        discussion: "With --json, prints the protocol's State object.")

    @OptionGroup var options: CommonOptions

    func run() async throws {
        let state = try await options.withClient { try await $0.state() }
        options.output(json: state.json, text: StatusRenderer.render(state, now: Date()))
    }
}
