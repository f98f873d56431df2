import Foundation

/// What a backend call (``RemoteAuthProvider``, ``UsernameDirectory``) can fail with.
///
/// The split matters: only ``rejected(_:)`` and the two credential cases are definitive.
/// Transport problems, 5xx, 429 and garbage answers are transient: the session is kept and the
/// call is retried later with backoff.
public enum RemoteAuthError: Error, Sendable, Hashable {
    /// The backend answered definitively: the request cannot succeed as made.
    case rejected(AuthError)
    /// An ID token sent with the call was refused as invalid or expired: refresh once and retry.
    case idTokenRejected
    /// The account behind the credential is gone: deleted, disabled or its refresh token
    /// revoked (`credentialsChanged` when the backend says why: a new password or email
    /// address). The session ends.
    case accountGone(AuthError.Reason)
    /// The backend could not be reached (connect failure, timeout, connection dropped).
    case transport(String)
    /// The backend answered 5xx.
    case unavailable(status: Int)
    /// The backend asked to slow down (429 and its equivalents), after `retryAfterMs`
    /// milliseconds when it said so (`Retry-After`).
    case rateLimited(retryAfterMs: Int?)
    /// The backend answered something that could not be understood.
    case malformedResponse(String)
    /// This backend, or this project's configuration of it, cannot do this at all. The text
    /// says what to configure or deploy. Never retried.
    case unsupported(String)
    /// The first factor was accepted, but the account has a second factor: nothing is signed
    /// in until ``RemoteAuthProvider/completeSecondFactor(_:factorId:code:)`` succeeds.
    case secondFactorRequired(PendingSecondFactor)

    /// Whether the failure says nothing about the request itself: retry later.
    public var isTransient: Bool {
        switch self {
        case .transport, .unavailable, .rateLimited, .malformedResponse: true
        case .rejected, .idTokenRejected, .accountGone, .unsupported, .secondFactorRequired: false
        }
    }

    /// The wait assumed when a backend rate-limits a call without saying how long (5 s).
    public static let defaultRateLimitWaitMs = 5000

    /// How long the backend asked to wait (seconds), when it rate-limited the call and said so.
    public var retryAfter: TimeInterval? {
        guard case .rateLimited(let milliseconds?) = self else { return nil }
        return TimeInterval(milliseconds) / 1000
    }

    /// The domain error a caller sees.
    public var authError: AuthError {
        switch self {
        case .rejected(let error): error
        case .accountGone(.credentialsChanged): AuthError(.credentialsChanged)
        case .idTokenRejected, .accountGone: AuthError(.sessionRevoked)
        case .transport: AuthError(.networkRequestFailed)
        case .unavailable, .malformedResponse: AuthError(.backendUnavailable)
        case .rateLimited(let retryAfterMs):
            AuthError(.tooManyRequests, retryAfterMs: retryAfterMs ?? Self.defaultRateLimitWaitMs)
        case .unsupported(let what): AuthError(.operationNotAllowed, message: what)
        // The service opens a challenge and adds it; never a reason to retry. The pending
        // sign-in rides in the error to the flow that opens the challenge.
        case .secondFactorRequired(let pending): AuthError(.secondFactorRequired).carrying(pending)
        }
    }
}
