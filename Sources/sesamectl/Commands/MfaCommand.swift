import ArgumentParser
import SesameClient

struct MfaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mfa",
        abstract: "Second factors: enrol an authenticator app (TOTP), list the factors, remove one.",
        discussion: """
            Once a factor is enrolled, every sign-in to the account (password, email link, provider, \
            custom token) asks for a code from the app. On Firebase the account needs a verified email \
            first (`sesamectl verify-email`).
            """,
        subcommands: [MfaEnrollCommand.self, MfaListCommand.self, MfaRemoveCommand.self],
        defaultSubcommand: MfaListCommand.self)
}

struct MfaListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the account's second factors (id, type, name, since when).")

    @OptionGroup var options: CommonOptions

    func run() async throws {
        let state = try await options.withClient(waiting: .daemon) { try await $0.state() }
        let factors = state.user?.factors ?? []
        options.output(
            json: JSONValue.array(factors.map(\.json)), text: SecondFactorText.factorLines(factors))
    }
}

struct MfaRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a second factor (`sesamectl mfa list` shows the ids).",
        discussion: """
            The backend may want a recent sign-in first: then run `sesamectl reauth` and remove it again.
            """)

    @Argument(help: ArgumentHelp("The factor's id, from `sesamectl mfa list`.", valueName: "factor-id"))
    var factorId: String

    @OptionGroup var options: CommonOptions

    func run() async throws {
        let state = try await options.withClient { try await $0.unenrollFactor(factorId: factorId) }
        let left = state.user?.factors.count ?? 0
        options.output(
            json: state.json,
            text: "second factor \(factorId) removed; "
                + (left == 0 ? "sign-ins need only the first factor now" : "\(left) left (`sesamectl mfa list`)"))
    }
}
