import ArgumentParser
import Foundation
import SesameClient

struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract:
            "Print the current ID token and a newline, for `curl -H \"Authorization: Bearer $(sesamectl token)\"`.",
        discussion: """
            With --json, prints the whole getIdToken result (token, uid, expiresAt, issuedAt, signInProvider). \
            When the token is valid for less than --min-validity (the backend's tokens do not last that long), \
            it is still printed, and a warning on standard error says for how long it is valid.
            """)

    @Flag(name: .long, help: "Get a new token even when the held one is still valid.")
    var force = false

    @Flag(name: .long, help: "Print `Authorization: Bearer TOKEN`, for `curl -H @-`.")
    var header = false

    // Unconditional, so `--min-validity -1` reaches validate() instead of reading as an option.
    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Seconds the token must stay valid (daemon default: 300).", valueName: "seconds"))
    var minValidity: Int?

    @OptionGroup var options: CommonOptions

    func validate() throws {
        if let minValidity, minValidity < 0 { throw ValidationError("--min-validity must not be negative") }
        if header && options.json { throw ValidationError("--header and --json do not go together: choose one") }
    }

    func run() async throws {
        let token = try await options.withClient { client in
            // While an address change is pending, the held token may belong to a session the
            // backend ended at the confirmation (Firebase): a refresh tells.
            let pending = try await client.state().user?.pendingEmail != nil
            return try await client.idToken(forceRefresh: force || pending, minValidity: minValidity)
        }
        options.output(json: token.json, text: header ? "Authorization: Bearer \(token.token)" : token.token)
        if let minValidity, let warning = TokenValidityWarning.text(for: token, minValidity: minValidity, now: Date()) {
            StandardError.print(warning)
        }
    }
}
