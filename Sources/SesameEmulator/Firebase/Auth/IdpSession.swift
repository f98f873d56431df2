/// A browser sign-in that `accounts:createAuthUri` started with a `providerId`: what
/// `accounts:signInWithIdp` with its `sessionId` checks the callback against.
struct IdpSession: Sendable {
    var providerId: String
    var continueUri: String
    /// The `state` put in the `authUri`; the callback must bring it back.
    var state: String
    /// Milliseconds since 1970.
    var createdAt: Int

    /// Seconds a session stays usable.
    static let lifetime = 3600
}
