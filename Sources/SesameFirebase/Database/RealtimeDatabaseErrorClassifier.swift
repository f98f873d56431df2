import SesameCore
import SesameHTTP

/// Turns a failed Realtime Database answer (`{"error":"<text>"}`) into a ``RemoteAuthError``.
///
/// 429 → rate limited; 5xx → unavailable; 401/403 → the ID token was refused when the text
/// says the token is expired or unparsable (and one was sent), else the security rules said
/// no (`operation-not-allowed`); 404 → no such database (`operation-not-allowed`); 400 → the
/// path or data was refused (`invalid-username`); an unexpected 412 → unavailable (the
/// location kept changing).
enum RealtimeDatabaseErrorClassifier: BackendErrorClassifier {
    /// Whether a call carried the ID token (`auth=`).
    enum Access: Sendable {
        case anonymous, withIDToken
    }

    static let backend = "rtdb"

    /// The database sends sentences, not codes: none is logged.
    static func code(of failure: HTTPFailure<ErrorBody>) -> String? { nil }

    static func classify(_ failure: HTTPFailure<ErrorBody>, context: Access) -> RemoteAuthError {
        let status = failure.status
        if status == 429 { return .rateLimited(retryAfterMs: failure.retryAfterMs) }
        if status >= 500 || status == 412 { return .unavailable(status: status) }
        let text = failure.body?.error?.lowercased() ?? ""
        switch status {
        case 401, 403:
            if context == .withIDToken,
                text.contains("expired") || text.contains("auth token") || text.contains("invalid token")
            {
                return .idTokenRejected
            }
            return .rejected(
                AuthError(
                    .operationNotAllowed,
                    message: "The username directory refused the request: check the database's security rules.")
            )
        case 404:
            return .rejected(
                AuthError(
                    .operationNotAllowed,
                    message: "The username directory's database was not found: check firebase.database_url.")
            )
        case 400:
            return .rejected(AuthError(.invalidUsername, message: "The username directory refused that name."))
        default:
            return .rejected(AuthError(.operationNotAllowed, message: "The username directory refused the request."))
        }
    }

    /// `{"error": "…"}`; an `error` that is not a string, or a body that is not an object, is none.
    struct ErrorBody: Decodable, Sendable {
        var error: String?

        private enum CodingKeys: String, CodingKey { case error }

        init(from decoder: any Decoder) throws {
            error = try? decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(String.self, forKey: .error)
        }
    }
}
