import HTTPTypes
import Hummingbird
import SesameLocalAPI

/// An RFC 6749 §5.2 error of the fake identity provider: `{"error","error_description"}`,
/// HTTP 400 unless said otherwise, plus `interval` on `slow_down` as GitHub sends it.
struct OAuthError: HTTPResponseError, Sendable, Equatable {
    var error: String
    var description: String
    var httpStatus = 400
    var interval: Int? = nil

    static let authorizationPending = OAuthError(
        error: "authorization_pending", description: "The user has not yet approved or denied the request.")
    static let accessDenied = OAuthError(error: "access_denied", description: "The user denied the request.")
    static let expiredToken = OAuthError(
        error: "expired_token", description: "The device code has expired; start a new device authorization.")
    static func invalidGrant(_ description: String) -> OAuthError {
        OAuthError(error: "invalid_grant", description: description)
    }
    static func invalidRequest(_ description: String) -> OAuthError {
        OAuthError(error: "invalid_request", description: description)
    }

    var status: HTTPResponse.Status { HTTPResponse.Status(code: httpStatus) }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var body: [String: JSONValue] = ["error": .string(error), "error_description": .string(description)]
        body["interval"] = interval.map(JSONValue.int)
        return .json(JSONValue.object(body), status: status, headers: [.cacheControl: "no-store"])
    }
}
