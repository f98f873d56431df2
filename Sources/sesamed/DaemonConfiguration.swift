import Foundation
import SesameOAuth
import TOMLKit

/// Everything `sesamed` is configured with: the TOML file, then the flags, then the
/// environment (`FIREBASE_*_EMULATOR_HOST`), each overriding the one before.
struct DaemonConfiguration: Sendable {
    /// `[backend]` and `[supabase]`.
    var backend = BackendConfiguration()
    var apiKey = ""
    var projectId = ""
    var authEmulatorHost: String? = nil
    var databaseURL: String? = nil
    var databaseEmulatorHost: String? = nil
    var anonymousFirst = true
    /// `session.first_guest_window`: seconds within which a fresh machine creates its first guest.
    var firstGuestWindow = 0
    var refreshMargin = 300
    /// `session.persistence`: the keyring on disk, or memory only (kiosks).
    var persistence = SessionPersistence.disk
    var usernamesRequired = false
    var reservedUsernames = ["admin", "root", "support"]
    var mergeHold = 2_592_000
    var socketPath = "/run/sesame/sesamed.sock"
    var socketMode: UInt32 = 0o660
    var maxConnections = 1024
    /// `socket.max_connections_per_uid`; nil: a quarter of `maxConnections`.
    var maxConnectionsPerUid: Int? = nil
    /// `socket.idle_timeout` in seconds; 0: never.
    var idleTimeout = 300.0
    /// `socket.group` as written (a name or a gid); nil: not set.
    var socketGroupName: String? = nil
    /// The gid the socket file is given: `socket.group`, or for root the group `sesame` when
    /// it exists; nil: the daemon's own group.
    var socketGroup: UInt32? = nil
    var managers: [String] = []
    var readers: [String] = ["group:sesame"]
    var observers: [String] = []
    /// `access.root_in_containers`: root and the daemon's uid are managers in other namespaces too.
    var rootInContainers = false
    var keyringPath = ""
    var stateDirectory = ""
    /// Seconds without a request after which memory is given back (`memory.release_when_idle`); 0: never.
    var releaseWhenIdle = 5.0
    /// The `[oauth."<providerId>"]` tables, by provider id.
    var oauthProviders: [String: OAuthProviderConfiguration] = [:]
    /// `provisioning.token_file` as written; nil: not set.
    var provisioningTokenFile: String? = nil
    /// `metrics.textfile_path`: where the metrics are kept for node_exporter; nil: no metrics file.
    var metricsTextfilePath: String? = nil
    /// Where the provisioning token is read from, resolved against `$CREDENTIALS_DIRECTORY`.
    var provisioningToken: ProvisioningTokenSource = .notConfigured
}

/// A configuration problem; the message names the key or path. `sesamed` exits with 78.
struct ConfigurationError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

extension DaemonConfiguration {
    /// The keys of the file and their types, by section.
    enum KeyType {
        case string, bool, integer, stringArray, mode
        /// A number of seconds: an integer or a float.
        case seconds
    }

    static let schema: [String: [String: KeyType]] = BackendConfiguration.schema.merging([
        "firebase": [
            "api_key": .string, "project_id": .string, "auth_emulator_host": .string, "database_url": .string,
            "database_emulator_host": .string,
        ],
        "session": [
            "anonymous_first": .bool, "refresh_margin": .integer, "persistence": .string,
            "first_guest_window": .integer,
        ],
        "usernames": ["required": .bool, "reserved": .stringArray],
        "merge": ["hold": .integer],
        "socket": [
            "path": .string, "mode": .mode, "max_connections": .integer, "max_connections_per_uid": .integer,
            "idle_timeout": .seconds, "group": .string,
        ],
        "access": [
            "managers": .stringArray, "readers": .stringArray, "observers": .stringArray, "root_in_containers": .bool,
        ],
        "keyring": ["path": .string],
        "memory": ["release_when_idle": .seconds],
        "provisioning": ["token_file": .string],
        "metrics": ["textfile_path": .string],
    ]) { first, _ in first }

    /// Builds the configuration.
    /// - Parameters:
    ///   - file: `--config FILE`, or nil for defaults only.
    ///   - socket: `--socket PATH`.
    ///   - stateDirectory: `--state-dir DIR`.
    ///   - environment: the process environment.
    ///   - uid: the daemon's uid (root picks system defaults).
    static func load(
        file: String?, socket: String?, stateDirectory: String?, environment: [String: String], uid: UInt32
    ) throws(ConfigurationError) -> DaemonConfiguration {
        var configuration = DaemonConfiguration()
        if uid != 0, let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            configuration.socketPath = runtime + "/sesame/sesamed.sock"
        }
        if let file { try configuration.apply(file: file) }
        if let socket { configuration.socketPath = socket }
        if let host = environment["FIREBASE_AUTH_EMULATOR_HOST"], !host.isEmpty {
            configuration.authEmulatorHost = host
        }
        if let host = environment["FIREBASE_DATABASE_EMULATOR_HOST"], !host.isEmpty {
            configuration.databaseEmulatorHost = host
        }
        configuration.stateDirectory = stateDirectory ?? Self.defaultStateDirectory(environment: environment, uid: uid)
        if configuration.keyringPath.isEmpty {
            configuration.keyringPath = configuration.stateDirectory + "/keyring"
        }
        try configuration.validate(file: file)
        try configuration.resolveSocketGroup(file: file, uid: uid)
        configuration.provisioningToken = try ProvisioningTokenSource(
            configuration.provisioningTokenFile, environment: environment, origin: file.map { "\($0): " } ?? "")
        return configuration
    }

    static func defaultStateDirectory(environment: [String: String], uid: UInt32) -> String {
        if let state = environment["STATE_DIRECTORY"], !state.isEmpty {
            // systemd may pass several, separated by ':'; the first is ours.
            return String(state.split(separator: ":").first ?? Substring(state))
        }
        if uid == 0 { return "/var/lib/sesame" }
        if let xdg = environment["XDG_STATE_HOME"], !xdg.isEmpty { return xdg + "/sesame" }
        let home = environment["HOME"] ?? "/tmp"
        return home + "/.local/state/sesame"
    }

    private mutating func apply(file: String) throws(ConfigurationError) {
        let text: String
        do {
            text = try String(contentsOfFile: file, encoding: .utf8)
        } catch {
            throw ConfigurationError(
                message: "Cannot read the configuration file \(file): \(error.localizedDescription)")
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigurationError(
                message: "\(file):\(error.source.begin.line): \(error.description)")
        } catch {
            throw ConfigurationError(message: "\(file): not valid TOML")
        }
        for section in table.keys {
            if section == "oauth", let providers = table[section] {
                try applyOAuth(providers, file: file)
                continue
            }
            guard let keys = Self.schema[section] else {
                throw ConfigurationError(message: "\(file): unknown section [\(section)]")
            }
            guard let sectionTable = table[section]?.table else {
                throw ConfigurationError(message: "\(file): '\(section)' must be a table ([\(section)])")
            }
            for key in sectionTable.keys {
                let name = "\(section).\(key)"
                guard let type = keys[key] else { throw ConfigurationError(message: "\(file): unknown key '\(name)'") }
                guard let value = sectionTable[key] else { continue }
                try set(name, value, type: type, file: file)
            }
        }
    }

    private mutating func set(
        _ name: String, _ value: any TOMLValueConvertible, type: KeyType, file: String
    )
        throws(ConfigurationError)
    {
        func wrong(_ what: String) -> ConfigurationError {
            ConfigurationError(message: "\(file): '\(name)' must be \(what)")
        }
        switch type {
        case .string:
            guard let string = value.string else { throw wrong("a string") }
            let optional: String? = string.isEmpty ? nil : string
            switch name {
            case "firebase.api_key": apiKey = string
            case "firebase.project_id": projectId = string
            case "firebase.auth_emulator_host": authEmulatorHost = optional
            case "firebase.database_url": databaseURL = optional
            case "firebase.database_emulator_host": databaseEmulatorHost = optional
            case "socket.path": socketPath = string
            case "socket.group": socketGroupName = string
            case "keyring.path": keyringPath = string
            case "provisioning.token_file": provisioningTokenFile = optional
            case "metrics.textfile_path": metricsTextfilePath = optional
            case "session.persistence":
                guard let value = SessionPersistence(rawValue: string) else { throw wrong("\"disk\" or \"memory\"") }
                persistence = value
            default: try backend.set(name, string, origin: "\(file): ")
            }
            backend.noteValue(name, string)
        case .bool:
            guard value.type == .bool, let bool = value.bool else { throw wrong("true or false") }
            switch name {
            case "session.anonymous_first": anonymousFirst = bool
            case "usernames.required": usernamesRequired = bool
            case "access.root_in_containers": rootInContainers = bool
            default: break
            }
        case .integer:
            guard value.type == .int, let int = value.int else { throw wrong("an integer") }
            guard int >= 0 else { throw wrong("zero or more") }
            switch name {
            case "session.refresh_margin": refreshMargin = int
            case "session.first_guest_window": firstGuestWindow = int
            case "merge.hold": mergeHold = int
            case "socket.max_connections":
                guard int >= 1 else { throw wrong("at least 1") }
                maxConnections = int
            case "socket.max_connections_per_uid":
                guard int >= 1 else { throw wrong("at least 1") }
                maxConnectionsPerUid = int
            default: break
            }
        case .seconds:
            let seconds: Double
            switch value.type {
            case .int: seconds = Double(value.int ?? -1)
            case .double: seconds = value.double ?? -1
            default: throw wrong("a number of seconds")
            }
            switch name {
            case "memory.release_when_idle":
                // Checked that often: less than 0.1 s would be a loop, not a timer.
                guard seconds == 0 || (0.1...86_400).contains(seconds) else {
                    throw wrong("0 (never) or from 0.1 to 86400 seconds")
                }
                releaseWhenIdle = seconds
            case "socket.idle_timeout":
                guard seconds == 0 || (1...86_400).contains(seconds) else {
                    throw wrong("0 (never) or from 1 to 86400 seconds")
                }
                idleTimeout = seconds
            default: try backend.setRequestTimeout(seconds, origin: "\(file): ")
            }
        case .stringArray:
            guard let array = value.array else { throw wrong("an array of strings") }
            var strings: [String] = []
            for element in array {
                guard let string = element.string else { throw wrong("an array of strings") }
                strings.append(string)
            }
            switch name {
            case "usernames.reserved": reservedUsernames = strings
            case "access.managers": managers = strings
            case "access.readers": readers = strings
            case "access.observers": observers = strings
            default: break
            }
        case .mode:
            if value.type == .int, let int = value.int, (0...0o777).contains(int) {
                socketMode = UInt32(int)
            } else if let string = value.string, let mode = UInt32(string, radix: 8), mode <= 0o777 {
                socketMode = mode
            } else {
                throw wrong("an octal mode such as \"0660\"")
            }
        }
    }

    private func validate(file: String?) throws(ConfigurationError) {
        let origin = file.map { "\($0): " } ?? ""
        try backend.validate(origin: origin)
        if backend.provider == .firebase {
            try validateFirebase(origin: origin)
        }
        guard socketPath.hasPrefix("/") || socketPath.hasPrefix("./") || !socketPath.isEmpty else {
            throw ConfigurationError(message: "\(origin)the socket path is empty")
        }
        if socketPath.utf8.count >= 108 {
            throw ConfigurationError(
                message: "the socket path \(socketPath) is longer than 107 bytes; choose a shorter one")
        }
        try validateSocketLimits(origin: origin)
        try validateMetrics(origin: origin)
        for (name, entries) in [
            ("access.managers", managers), ("access.readers", readers), ("access.observers", observers),
        ] {
            for entry in entries where !Self.isValidPrincipal(entry) {
                throw ConfigurationError(
                    message:
                        "\(origin)'\(name)' has \"\(entry)\"; entries are \"user:NAME\", \"group:NAME\", \"uid:N\", \"gid:N\", \"unit:NAME.service\", \"exe:/PATH\", \"flatpak:APP_ID\" or \"container\", or several joined by spaces (all must match)"
                )
            }
        }
    }
}
