import ArgumentParser
import SesameClient

struct UsernameCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Tell whether a username is free; exits 1 when it is not.")

    @Argument(help: "The username to check.")
    var name: String

    @OptionGroup var options: CommonOptions

    func run() async throws {
        let answer = try await options.withClient { try await $0.checkUsername(name) }
        options.output(
            json: JSONText.object([
                ("available", answer.available ? "true" : "false"), ("reason", JSONText.optional(answer.reason)),
                ("username", JSONText.quote(answer.username)),
            ]),
            text: answer.available
                ? "\(answer.username) is available"
                : "\(answer.username) is not available (\(answer.reason ?? "unknown reason"))")
        if !answer.available { throw ExitCode(ExitStatus.failure.rawValue) }
    }
}
