import Foundation
import SesameHTTP

/// `[backend]` and `[supabase]` of `sesamed.toml`: which backend the daemon talks to, and where
/// Supabase is. (`[firebase]` keeps its fields on ``DaemonConfiguration``.)
struct BackendConfiguration: Sendable, Hashable {
    /// The backends `backend.provider` names.
    enum Provider: String, Sendable, Hashable, CaseIterable {
        case firebase
        case supabase
    }

    var provider: Provider = .firebase
    /// `supabase.url`: the project URL (`<url>/auth/v1`, `<url>/rest/v1`).
    var supabaseURL = ""
    /// `supabase.anon_key`: sent as `apikey`, and as the bearer of anonymous database calls.
    var supabaseAnonKey = ""
    /// `supabase.delete_function`: the PostgREST function that deletes the caller's account.
    var supabaseDeleteFunction = "delete_user"
    /// `backend.request_timeout`: how long one backend call (connect, send, receive) may take
    /// before it fails as `network-request-failed`.
    var requestTimeout: Duration = .seconds(10)
    /// The range `backend.request_timeout` must be in, in seconds.
    static let requestTimeoutRange: ClosedRange<Double> = 0.1...300
    /// The sections that set a value other than empty or the default, to warn about the one
    /// the provider does not read.
    var configuredSections: Set<String> = []

    static let schema: [String: [String: DaemonConfiguration.KeyType]] = [
        "backend": ["provider": .string, "request_timeout": .seconds],
        "supabase": ["url": .string, "anon_key": .string, "delete_function": .string],
    ]

    /// Applies one string key of `[backend]` or `[supabase]`.
    mutating func set(_ name: String, _ value: String, origin: String) throws(ConfigurationError) {
        switch name {
        case "backend.provider":
            guard let provider = Provider(rawValue: value) else {
                throw ConfigurationError(
                    message: "\(origin)'backend.provider' must be \"firebase\" or \"supabase\", not \"\(value)\"")
            }
            self.provider = provider
        case "supabase.url": supabaseURL = value
        case "supabase.anon_key": supabaseAnonKey = value
        case "supabase.delete_function": supabaseDeleteFunction = value
        default: break
        }
    }

    /// Applies `backend.request_timeout` (seconds, an integer or a float).
    mutating func setRequestTimeout(_ seconds: Double, origin: String) throws(ConfigurationError) {
        guard Self.requestTimeoutRange.contains(seconds) else {
            throw ConfigurationError(
                message:
                    "\(origin)'backend.request_timeout' must be a number of seconds from 0.1 to 300, not \(seconds)")
        }
        requestTimeout = .milliseconds(Int((seconds * 1000).rounded()))
    }

    /// Notes that the file set `name` (`section.key`) to `value`.
    mutating func noteValue(_ name: String, _ value: String) {
        guard !value.isEmpty, !(name == "supabase.delete_function" && value == "delete_user"),
            let section = name.split(separator: ".").first
        else { return }
        configuredSections.insert(String(section))
    }

    /// Checks the keys the chosen provider needs.
    func validate(origin: String) throws(ConfigurationError) {
        guard provider == .supabase else { return }
        let url = supabaseURL.trimmingCharacters(in: .whitespaces)
        if url.isEmpty {
            throw ConfigurationError(
                message:
                    "\(origin)'supabase.url' is required with backend.provider = \"supabase\" (the project URL, e.g. \"https://<project>.supabase.co\")"
            )
        }
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
            scheme == "http" || scheme == "https",
            parsed.host?.isEmpty == false
        else {
            throw ConfigurationError(
                message:
                    "\(origin)'supabase.url' must be an http(s) URL such as \"https://<project>.supabase.co\", not \(url)"
            )
        }
        let path = parsed.path.hasSuffix("/") ? String(parsed.path.dropLast()) : parsed.path
        if path.hasSuffix("/auth/v1") || path.hasSuffix("/rest/v1") {
            throw ConfigurationError(
                message:
                    "\(origin)'supabase.url' is the project URL without /auth/v1 or /rest/v1 (the daemon adds them), not \(url)"
            )
        }
        if supabaseAnonKey.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ConfigurationError(
                message:
                    "\(origin)'supabase.anon_key' is required with backend.provider = \"supabase\" (Project settings > API keys: the publishable key, sb_publishable_…)"
            )
        }
        if Self.isPrivilegedKey(supabaseAnonKey) {
            throw ConfigurationError(
                message:
                    "\(origin)'supabase.anon_key' holds the project's secret (service_role) key, which bypasses row-level security and must never sit in a configuration file: use the publishable key (sb_publishable_…) or the legacy anon key"
            )
        }
        let function = supabaseDeleteFunction
        if function.isEmpty
            || !function.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || $0 == "_" })
        {
            throw ConfigurationError(
                message: "\(origin)'supabase.delete_function' must be a function name such as \"delete_user\"")
        }
    }

    private struct KeyClaims: Decodable { var role: String? }

    /// A secret key of a new project, or a legacy JWT key with the service_role role.
    static func isPrivilegedKey(_ key: String) -> Bool {
        let key = key.trimmingCharacters(in: .whitespaces)
        return key.hasPrefix("sb_secret_") || JWTPayload.claims(KeyClaims.self, of: key)?.role == "service_role"
    }

    /// A warning for a section that sets values the chosen provider ignores; nil when there is
    /// none (a section of empty defaults, as in etc/sesamed.toml, is not worth a warning).
    var ignoredSectionWarning: String? {
        let other: Provider = provider == .firebase ? .supabase : .firebase
        guard configuredSections.contains(other.rawValue) else { return nil }
        return "[\(other.rawValue)] is ignored: backend.provider is \"\(provider.rawValue)\""
    }
}
