import SesameCore
import SesameHTTP

/// What an OAuth call was doing: which provider, and whether it polled.
struct OAuthCallContext: Sendable, Hashable {
    var providerId: String
    var isPoll: Bool
}

/// Maps the refusals of a provider's device and token endpoints onto ``RemoteAuthError`` and
/// ``DevicePollAnswer`` (the table is in docs/providers.md, "Device flow").
enum OAuthErrorClassifier: BackendErrorClassifier {
    static let backend = "oauth"

    static func code(of failure: HTTPFailure<OAuthErrorBody>) -> String? {
        failure.body?.error
    }

    /// A refusal without an `error` the poll understands: 429 and 5xx by status, then the code.
    static func classify(_ failure: HTTPFailure<OAuthErrorBody>, context: OAuthCallContext) -> RemoteAuthError {
        if failure.status == 429 { return .rateLimited(retryAfterMs: failure.retryAfterMs) }
        if failure.status >= 500 { return .unavailable(status: failure.status) }
        guard let code = failure.body?.error else {
            return .malformedResponse("\(failure.call): HTTP \(failure.status) without an OAuth error")
        }
        return error(for: code, context: context)
    }

    /// A poll's answer to an `error` code (RFC 8628 §3.5); the codes that end the flow otherwise
    /// are thrown.
    static func pollAnswer(
        for code: String, interval: Double?, context: OAuthCallContext
    ) throws(RemoteAuthError) -> DevicePollAnswer {
        switch code {
        case "authorization_pending": return .pending
        case "slow_down": return .slowDown(interval: interval.flatMap { $0 > 0 && $0.isFinite ? $0 : nil })
        case "access_denied": return .denied
        case "expired_token": return .expired
        default: throw error(for: code, context: context)
        }
    }

    /// The error of a code that is not a poll's ordinary answer. The messages name what to
    /// configure, never a value the provider sent.
    static func error(for code: String, context: OAuthCallContext) -> RemoteAuthError {
        let key = "[oauth.\"\(context.providerId)\"]"
        switch code {
        case "invalid_grant", "incorrect_device_code", "bad_verification_code", "expired_token":
            return .rejected(AuthError(.expiredSignInFlow))
        case "access_denied":
            return .rejected(AuthError(.accessDenied))
        case "slow_down", "authorization_pending":
            return .rateLimited(retryAfterMs: nil)
        case "incorrect_client_credentials", "invalid_client", "unauthorized_client":
            return .unsupported(
                "\(context.providerId) refused the OAuth client: check \(key) client_id (and client_secret where the provider needs one) in sesamed.toml; the client must be one for limited-input devices."
            )
        case "invalid_request":
            return .unsupported(
                "\(context.providerId) refused the device flow request: check \(key) client_id and client_secret in sesamed.toml (Google's device flow needs the secret of its \"TVs and Limited Input devices\" client)."
            )
        case "device_flow_disabled":
            return .unsupported(
                "The device flow is disabled for the OAuth app of \(key) client_id: enable it in the app's settings (GitHub: Developer settings > OAuth Apps > Enable Device Flow)."
            )
        case "unsupported_grant_type":
            return .unsupported(
                "\(context.providerId)'s token endpoint does not take device codes: check \(key) token_endpoint in sesamed.toml."
            )
        case "invalid_scope":
            return .unsupported(
                "\(context.providerId) refused the scopes asked for: check \(key) scopes in sesamed.toml.")
        default:
            return .rejected(AuthError(.invalidCredential, providerId: context.providerId))
        }
    }
}
