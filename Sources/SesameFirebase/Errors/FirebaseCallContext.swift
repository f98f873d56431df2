import SesameCore

/// What a call was doing, which decides how a failure maps onto ``RemoteAuthError``.
struct FirebaseCallContext: Sendable, Hashable {
    /// The endpoint called.
    var endpoint: FirebaseEndpoint
    /// Whether the call carried the session's ID token (then `INVALID_ID_TOKEN`,
    /// `TOKEN_EXPIRED`, `USER_NOT_FOUND` and `USER_DISABLED` are about the session).
    var sentIDToken: Bool
    /// The reason for a definitive answer whose code the adapter does not know.
    var fallback: AuthError.Reason
    /// The email the call is about, attached to conflict errors.
    var email: String?
    /// The provider the call is about, attached to conflict errors.
    var providerId: String?

    init(
        _ endpoint: FirebaseEndpoint, sentIDToken: Bool, fallback: AuthError.Reason = .operationNotAllowed,
        email: String? = nil, providerId: String? = nil
    ) {
        self.endpoint = endpoint
        self.sentIDToken = sentIDToken
        self.fallback = fallback
        self.email = email
        self.providerId = providerId
    }
}
