import ArgumentParser
import SesameClient

struct UnlinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlink",
        abstract: "Remove a sign-in method from the account (`password` removes both email ways).")

    @Argument(help: ArgumentHelp("The provider id: password, google.com, …", valueName: "provider"))
    var providerId: String

    @OptionGroup var options: CommonOptions

    func run() async throws {
        let state = try await options.withClient { try await $0.unlink(providerId: providerId) }
        options.output(json: state.json, text: StatusRenderer.oneLine(state))
    }
}
