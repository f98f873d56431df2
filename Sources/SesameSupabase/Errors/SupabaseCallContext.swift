import SesameCore

/// What a call was doing, which decides how a failure maps onto ``RemoteAuthError``.
struct SupabaseCallContext: Sendable, Hashable {
    /// A short, secret-free name for logs (`auth.signup`, `rest.usernames.claim`, …).
    var name: String
    /// Whether this is the refresh grant (then the codes that end a session end it).
    var isRefresh = false
    /// Whether the call carried the session's access token.
    var sentUserToken = false
    /// The reason for a definitive answer whose code the adapter does not know.
    var fallback: AuthError.Reason = .operationNotAllowed
    /// The reason for `validation_failed` (a malformed input): which input depends on the call.
    var validationReason: AuthError.Reason? = nil
    /// The email the call is about, attached to conflict errors.
    var email: String? = nil
    /// The provider the call is about (Firebase's name), attached to conflict errors.
    var providerId: String? = nil
}
