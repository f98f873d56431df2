/// Where the session stands: `starting`, `signedOut`, `anonymous` or `authenticated`.
///
/// An open set: a status a newer daemon sends survives as its raw value instead of collapsing
/// into "unknown", so `switch` over it needs a `default`.
public struct SesameStatus: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The daemon has not loaded its keyring yet.
    public static let starting = Self(rawValue: "starting")
    /// No user: the daemon is creating the anonymous one, or anonymous first is off.
    public static let signedOut = Self(rawValue: "signedOut")
    /// An anonymous (guest) user.
    public static let anonymous = Self(rawValue: "anonymous")
    /// A user with at least one sign-in method.
    public static let authenticated = Self(rawValue: "authenticated")

    public var description: String { rawValue }
}

/// Whether the daemon's last backend call succeeded (`online`) or failed for a transport
/// reason, a 5xx or a 429 (`offline`). An open set, like ``SesameStatus``.
public struct SesameConnectivity: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let online = Self(rawValue: "online")
    public static let offline = Self(rawValue: "offline")

    public var description: String { rawValue }
}

/// The role the daemon gives this process (PROTOCOL.md, Access). Each includes the ones before.
public enum SesameRole: String, Sendable, Hashable, Comparable, CaseIterable {
    /// May call `hello` only.
    case none
    /// May read the state, subscribe and check usernames.
    case observer
    /// May also get ID tokens.
    case reader
    /// May also change the session.
    case manager

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
