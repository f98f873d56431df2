/// The coarse state of the session, as `State.status` on the wire.
public enum AuthStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// The keyring has not been loaded yet.
    case starting
    /// No user: nobody is signed in (for example while offline before the first anonymous
    /// sign-in succeeded).
    case signedOut
    /// An anonymous (guest) user.
    case anonymous
    /// A user with at least one sign-in method.
    case authenticated
}

/// Whether the last backend call reached the backend: `rateLimited` when it answered that a
/// rate limit was reached (``AuthState/rateLimit`` says which and until when).
public enum Connectivity: String, Sendable, Hashable, Codable {
    case online
    case offline
    case rateLimited = "rate-limited"
}

/// Why the uid, `status` or `isAnonymous` changed (`authStateChanged.reason`).
public enum AuthChangeReason: String, Sendable, Hashable, Codable, CaseIterable {
    case anonymousCreated = "anonymous-created"
    case signedUp = "signed-up"
    case signedIn = "signed-in"
    case linked
    case merged
    case signedOut = "signed-out"
    case reset
    case accountDeleted = "account-deleted"
    case sessionRevoked = "session-revoked"
    case credentialsChanged = "credentials-changed"
}
