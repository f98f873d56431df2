/// Why SesameClient's `stateChanges` yielded a ``SesameState`` (its ``SesameState/changeReason``).
///
/// The daemon's `authStateChanged` reasons (`signed-in`, `merged`, …) keep their wire
/// spelling; the others name the notification or the client's own recovery. An open set.
public struct SesameChangeReason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    // Reasons of `authStateChanged`, as the daemon sends them.
    public static let anonymousCreated = Self(rawValue: "anonymous-created")
    public static let signedUp = Self(rawValue: "signed-up")
    public static let signedIn = Self(rawValue: "signed-in")
    public static let linked = Self(rawValue: "linked")
    public static let merged = Self(rawValue: "merged")
    public static let signedOut = Self(rawValue: "signed-out")
    public static let reset = Self(rawValue: "reset")
    public static let accountDeleted = Self(rawValue: "account-deleted")
    public static let sessionRevoked = Self(rawValue: "session-revoked")
    /// The backend ended the session because the account's password or email address changed.
    public static let credentialsChanged = Self(rawValue: "credentials-changed")

    // Reasons the client derives.
    /// The state as of subscribing: the first value of every stream, and the first after a
    /// reconnection.
    public static let snapshot = Self(rawValue: "snapshot")
    /// `idTokenChanged`: a new ID token was obtained.
    public static let tokenRefreshed = Self(rawValue: "token-refreshed")
    /// `userUpdated`: profile fields, providers or pending merges changed.
    public static let userUpdated = Self(rawValue: "user-updated")
    /// `connectivityChanged`.
    public static let connectivityChanged = Self(rawValue: "connectivity-changed")
    /// `signInFlowChanged`: a sign-in flow started, changed status or ended (`signInPrompt`).
    public static let signInFlowChanged = Self(rawValue: "sign-in-flow-changed")
    /// The client missed notifications (a gap in `sequence`) and read the state again.
    public static let resynchronized = Self(rawValue: "resynchronized")

    public var description: String { rawValue }
}
