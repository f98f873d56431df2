import ArgumentParser
import SesameClient

struct UpdateProfileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update-profile",
        abstract: "Change the account's display name.")

    @Option(name: .long, help: ArgumentHelp("The new display name.", valueName: "name"))
    var displayName: String

    @OptionGroup var options: CommonOptions

    func run() async throws {
        let state = try await options.withClient { try await $0.updateProfile(displayName: displayName) }
        options.output(json: state.json, text: "display name: \(state.user?.displayName ?? displayName)")
    }
}
