import ArgumentParser
import SesameClient

struct AccessCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "access",
        abstract: "Programs' requests for a role, and the roles granted: list, allow, deny, revoke (managers).",
        discussion: """
            A program with too low a role may ask for one (requestAccess). Its request names the \
            program as sesamed read it (executable, unit, Flatpak id, uid and pid); its reason is \
            its own words. `sesamectl watch` shows requests as they come.
            """,
        subcommands: [
            AccessListCommand.self, AccessAllowCommand.self, AccessDenyCommand.self, AccessRevokeCommand.self,
        ],
        defaultSubcommand: AccessListCommand.self)
}

struct AccessListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the open requests for a role and the grants.")

    @OptionGroup var options: CommonOptions

    func run() async throws {
        let (state, grants) = try await options.withClient(waiting: .daemon) { client in
            (try await client.state(), try await client.listAccessGrants())
        }
        let requests = state.accessRequests
        let json: JSONValue = .object([
            "accessRequests": .array(requests.map(\.json)), "grants": .array(grants.map(\.json)),
        ])
        var lines = requests.isEmpty ? ["no request open"] : requests.map { "request " + AccessText.request($0) }
        lines += grants.isEmpty ? ["no grant"] : grants.map { "grant " + AccessText.grant($0) }
        if !requests.isEmpty {
            lines.append("answer with: sesamectl access allow ID [--remember boot|always] or deny ID")
        }
        options.output(json: json, text: lines.joined(separator: "\n"))
    }
}

struct AccessAllowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "allow", abstract: "Give a requesting program the role it asked for.")

    @Argument(help: ArgumentHelp("The request's id, from `sesamectl access`.", valueName: "id"))
    var requestId: String

    @Option(
        help: ArgumentHelp(
            "How long: connection (this connection only), boot (until sesamed stops) or always (kept, for the "
                + "same user and executable file).", valueName: "scope"))
    var remember: Remember = .connection

    enum Remember: String, ExpressibleByArgument, CaseIterable {
        case connection, boot, always
    }

    @OptionGroup var options: CommonOptions

    func run() async throws {
        try await options.withClient(waiting: .daemon) { client in
            try await client.answerAccessRequest(requestId: requestId, allow: true, remember: remember.rawValue)
        }
        options.output(json: "{}", text: "request \(requestId) allowed (\(remember.rawValue))")
    }
}

struct AccessDenyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deny", abstract: "Refuse a program's request; it gets permission-denied.")

    @Argument(help: ArgumentHelp("The request's id, from `sesamectl access`.", valueName: "id"))
    var requestId: String

    @OptionGroup var options: CommonOptions

    func run() async throws {
        try await options.withClient(waiting: .daemon) { client in
            try await client.answerAccessRequest(requestId: requestId, allow: false)
        }
        options.output(json: "{}", text: "request \(requestId) denied")
    }
}

struct AccessRevokeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke",
        abstract: "Withdraw a grant; programs holding it fall back to the role [access] gives them.")

    @Argument(help: ArgumentHelp("The grant's id, from `sesamectl access`.", valueName: "grant"))
    var grantId: String

    @OptionGroup var options: CommonOptions

    func run() async throws {
        try await options.withClient(waiting: .daemon) { client in try await client.revokeAccessGrant(grantId: grantId)
        }
        options.output(json: "{}", text: "grant \(grantId) revoked")
    }
}
