import ArgumentParser
import SesameClient

struct SignOutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-out",
        abstract: "Sign out; a fresh guest session follows.",
        discussion: "Signing out a guest deletes its data for good, so it needs --reset.")

    @Flag(name: .long, help: "Confirm that signing out a guest deletes its data.")
    var reset = false

    @OptionGroup var options: CommonOptions

    func run() async throws {
        let state = try await options.withClient { try await $0.signOut(reset: reset) }
        options.output(json: state.json, text: "signed out; now " + StatusRenderer.oneLine(state))
    }
}
