import ArgumentParser
import SesameClient

struct UsernameSetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Claim a username for the account and release the old one.")

    @Argument(help: "3 to 32 letters, digits, `_`, `-` or `.`.")
    var name: String

    @OptionGroup var options: CommonOptions

    func run() async throws {
        let state = try await options.withClient { try await $0.setUsername(name) }
        options.output(json: state.json, text: "your username is now \(state.user?.username ?? name)")
    }
}
