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
