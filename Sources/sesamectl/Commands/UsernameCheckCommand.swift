import ArgumentParser
import SesameClient

struct UsernameCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Tell whether a username is free (or already yours); exits 1 when you cannot take it.")

    @Argument(help: "The username to check.")
    var name: String

    @OptionGroup var options: CommonOptions

    func run() async throws {
        let (answer, state) = try await options.withClient { client in
            (try await client.checkUsername(name), try await client.state())
        }
        let isOwn = Self.isOwnName(answer, of: state)
        options.output(
            json: JSONValue.object([
                "available": .bool(answer.available), "reason": answer.reason.map(JSONValue.string) ?? .null,
                "username": .string(answer.username),
            ]),
            text: Self.text(answer, isOwn: isOwn))
        if !answer.available { throw ExitCode(ExitStatus.failure.rawValue) }
    }

    /// Whether the name checked is the signed-in account's own username (the daemon says it
    /// is available to its owner).
    static func isOwnName(_ answer: SesameUsernameAvailability, of state: SesameState) -> Bool {
        guard answer.available, let own = state.user?.username else { return false }
        return own.lowercased() == answer.username.lowercased()
    }

    static func text(_ answer: SesameUsernameAvailability, isOwn: Bool) -> String {
        if isOwn { return "\(answer.username) is your username" }
        return answer.available
            ? "\(answer.username) is available"
            : "\(answer.username) is not available (\(answer.reason ?? "unknown reason"))"
    }
}
