import Foundation

/// A consistent snapshot of the session for clients: never contains a token.
public struct AuthState: Sendable, Hashable {
    public var status: AuthStatus
    public var user: User?
    /// Expiry of the held ID token; nil when no token is held.
    public var tokenExpiresAt: Date?
    public var connectivity: Connectivity
    public var needsUsername: Bool
    public var pendingMerges: [Merge]

    public init(
        status: AuthStatus, user: User?, tokenExpiresAt: Date?, connectivity: Connectivity,
        needsUsername: Bool, pendingMerges: [Merge]
    ) {
        self.status = status
        self.user = user
        self.tokenExpiresAt = tokenExpiresAt
        self.connectivity = connectivity
        self.needsUsername = needsUsername
        self.pendingMerges = pendingMerges
    }
}
