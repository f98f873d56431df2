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
    /// The place of this state in the order of changes (docs/protocol.md, "Sequence and
    /// ordering"): the sequence of the last change it includes.
    public var sequence: Int64
    /// The open interactive sign-in flow any program may show; nil when none is open.
    public var signInPrompt: SignInPrompt?
    /// The open second-factor challenge of a sign-in; nil when none is open.
    public var secondFactor: SecondFactorChallenge?
    /// The limit the backend reported while `connectivity` is `rateLimited`; nil otherwise.
    public var rateLimit: RateLimit?

    public init(
        status: AuthStatus, user: User?, tokenExpiresAt: Date?, connectivity: Connectivity,
        needsUsername: Bool, pendingMerges: [Merge], sequence: Int64 = 0, signInPrompt: SignInPrompt? = nil,
        secondFactor: SecondFactorChallenge? = nil, rateLimit: RateLimit? = nil
    ) {
        self.rateLimit = rateLimit
        self.secondFactor = secondFactor
        self.signInPrompt = signInPrompt
        self.sequence = sequence
        self.status = status
        self.user = user
        self.tokenExpiresAt = tokenExpiresAt
        self.connectivity = connectivity
        self.needsUsername = needsUsername
        self.pendingMerges = pendingMerges
    }
}
