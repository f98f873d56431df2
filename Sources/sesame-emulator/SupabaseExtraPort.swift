import ArgumentParser
import Foundation
import SesameEmulator

/// One `--supabase-extra-port PORT[:SETTING,…]`: a further GoTrue server over the main Supabase
/// port's users and tables, with the settings given here and the main port's for the rest.
struct SupabaseExtraPort: ExpressibleByArgument {
    var port: Int
    /// `name=value` pairs in the order given.
    var settings: [(String, String)]

    static let names = [
        "layout", "autoconfirm", "signup", "anonymous", "phone", "jwt-secret", "jwt-keys", "jwt-expiry", "signing-key",
    ]

    init?(argument: String) {
        let parts = argument.split(separator: ":", maxSplits: 1).map(String.init)
        guard let first = parts.first, let port = Int(first), (0...65535).contains(port) else { return nil }
        self.port = port
        self.settings = []
        guard parts.count == 2 else { return }
        for pair in parts[1].split(separator: ",") {
            let field = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard field.count == 2, Self.names.contains(field[0]) else { return nil }
            settings.append((field[0], field[1]))
        }
    }

    /// The port's configuration: `main` with this port and its settings.
    func configuration(over main: SupabaseEmulatorConfiguration) throws -> SupabaseEmulatorConfiguration {
        var configuration = main
        configuration.port = port
        for (name, value) in settings {
            switch name {
            case "layout":
                configuration.layout = try Self.parse(value, name, SupabasePortLayout.init(rawValue:))
            case "autoconfirm": configuration.autoconfirm = try Self.parse(value, name, Bool.init)
            case "signup": configuration.signupEnabled = try Self.parse(value, name, Bool.init)
            case "anonymous": configuration.anonymousSignIns = try Self.parse(value, name, Bool.init)
            case "phone": configuration.phoneEnabled = try Self.parse(value, name, Bool.init)
            case "jwt-secret":
                guard value.utf8.count >= 32 else {
                    throw ValidationError("--supabase-extra-port \(port): jwt-secret must be at least 32 characters")
                }
                configuration.jwtSecret = value
            case "jwt-keys": configuration.jwtKeys = try Self.keySet(file: value, port: port)
            case "jwt-expiry":
                configuration.jwtExpirySeconds = try Self.parse(value, name) { Int($0).flatMap { $0 >= 1 ? $0 : nil } }
            default:
                configuration.jwtKeys = nil
                configuration.signingAlgorithm = try Self.parse(value, name, SupabaseSigningAlgorithm.init(rawValue:))
            }
        }
        return configuration
    }

    private static func parse<T>(_ value: String, _ name: String, _ make: (String) -> T?) throws -> T {
        guard let parsed = make(value) else {
            throw ValidationError("--supabase-extra-port: \(name)=\(value) is not a valid value")
        }
        return parsed
    }

    /// A JWK set file, as `--supabase-jwt-keys` takes one (never inline: its commas would split).
    private static func keySet(file: String, port: Int) throws -> SupabaseJWKSet {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw ValidationError("--supabase-extra-port \(port): jwt-keys=\(file) is not a readable file")
        }
        do { return try SupabaseJWKSet(json: text) } catch { throw ValidationError("\(error)") }
    }
}
