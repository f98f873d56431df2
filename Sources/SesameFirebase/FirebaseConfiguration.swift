import Foundation

/// Where and how to reach a Firebase project. Plain values: the daemon's configuration code
/// resolves files, flags and environment variables (`FIREBASE_AUTH_EMULATOR_HOST`, …) first.
public struct FirebaseConfiguration: Sendable, Hashable {
    /// The Web API key, sent as `?key=` on every Identity Toolkit and Secure Token call.
    public var apiKey: String
    /// The project id; names the emulator database namespace when only an emulator host is set.
    public var projectId: String
    /// `host:port` of an Auth emulator (Firebase's convention, no scheme; a scheme or trailing
    /// slash given by mistake is dropped); nil or empty for production.
    public var authEmulatorHost: String?
    /// The Realtime Database URL (`https://<db>.firebaseio.com`); nil or empty = usernames off
    /// unless a database emulator host is set.
    public var databaseURL: String?
    /// `host:port` of a Realtime Database emulator (normalised like ``authEmulatorHost``); nil
    /// or empty for production.
    public var databaseEmulatorHost: String?
    /// How long a TCP connect may take before the call fails as a transport error. Short, so a
    /// machine that is offline finds out fast.
    public var connectTimeout: Duration
    /// How long a whole call (connect, send, receive) may take.
    public var requestTimeout: Duration
    /// The `continueUrl` of sign-in links when the caller gives none.
    public var defaultContinueUrl: String

    public init(
        apiKey: String,
        projectId: String,
        authEmulatorHost: String? = nil,
        databaseURL: String? = nil,
        databaseEmulatorHost: String? = nil,
        connectTimeout: Duration = .milliseconds(800),
        requestTimeout: Duration = .seconds(10),
        defaultContinueUrl: String = "http://localhost"
    ) {
        self.apiKey = apiKey
        self.projectId = projectId
        self.authEmulatorHost = authEmulatorHost.nonEmpty.map(Self.hostAndPort)
        self.databaseURL = databaseURL.nonEmpty
        self.databaseEmulatorHost = databaseEmulatorHost.nonEmpty.map(Self.hostAndPort)
        self.connectTimeout = connectTimeout
        self.requestTimeout = requestTimeout
        self.defaultContinueUrl = defaultContinueUrl
    }

    /// `host:port` out of an emulator host given with a scheme or a trailing slash by mistake
    /// (`http://127.0.0.1:9099/` → `127.0.0.1:9099`).
    static func hostAndPort(_ value: String) -> String {
        var value = Substring(value)
        if let schemeEnd = value.range(of: "://") { value = value[schemeEnd.upperBound...] }
        while value.hasSuffix("/") { value = value.dropLast() }
        return String(value)
    }

    /// Whether the username directory is configured (a database URL or emulator host is set).
    public var usernamesEnabled: Bool { databaseURL != nil || databaseEmulatorHost != nil }
}

extension Optional where Wrapped == String {
    /// nil for nil, empty or all-whitespace strings; else the trimmed string.
    var nonEmpty: String? {
        guard let trimmed = self?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else {
            return nil
        }
        return trimmed
    }
}
