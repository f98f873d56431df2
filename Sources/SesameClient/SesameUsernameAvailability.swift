/// The result of ``SesameClient/checkUsername(_:)``.
public struct SesameUsernameAvailability: Sendable, Hashable {
    /// The name as the daemon read it.
    public var username: String
    /// True when the caller may claim it (its own current name is available to it).
    public var available: Bool
    /// Why not: `invalid-username`, `username-taken` or `username-reserved`.
    public var reason: String?

    public init(username: String, available: Bool, reason: String?) {
        self.username = username
        self.available = available
        self.reason = reason
    }
}
