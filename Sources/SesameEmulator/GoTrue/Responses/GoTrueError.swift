import HTTPTypes
import Hummingbird
import SesameLocalAPI

/// A GoTrue API error: an HTTP status, one of GoTrue's snake_case error codes and a message.
///
/// Rendered in one of GoTrue's shapes (reference A.4): requests with `X-Supabase-Api-Version: 2024-01-01` or
/// later get `{"code":"<code>","message":…}` and the header echoed; others the legacy `{"code":<status>,
/// "error_code":"<code>","msg":…}`; both carry `x-sb-error-code`. Some `/token` failures are OAuth-shaped.
struct GoTrueError: Error, Sendable, Equatable {
    var httpStatus: Int
    var code: String
    var message: String
    /// `weak_password.reasons` (`length`, `characters`, `pwned`).
    var weakPasswordReasons: [String]? = nil
    /// When set, the error is OAuth-shaped (`error` = this value) and always 400.
    var oauthError: String? = nil

    /// `x-sb-error-code`: the error's code, on every shape but OAuth's.
    static let codeField = HTTPField.Name("x-sb-error-code")!

    /// The answer for a request that did (`versioned`) or did not ask for the 2024-01-01 shape.
    func response(versioned: Bool) -> Response {
        let echo: HTTPFields =
            versioned ? [GoTrueOperation.apiVersionField: GoTrueOperation.apiVersion] : [:]
        if let oauthError {
            // errors.go's HandleResponseError echoes the version before choosing the shape.
            let body: JSONValue = ["error": .string(oauthError), "error_description": .string(message)]
            return Response.json(body, status: .badRequest, headers: echo)
        }
        var body: [String: JSONValue]
        var headers: HTTPFields = [Self.codeField: code]
        if versioned {
            body = ["code": .string(code), "message": .string(message)]
            headers.append(contentsOf: echo)
        } else {
            body = ["code": .int(httpStatus), "error_code": .string(code), "msg": .string(message)]
        }
        if let weakPasswordReasons {
            body["weak_password"] = ["reasons": .array(weakPasswordReasons.map(JSONValue.string))]
        }
        return Response.json(JSONValue.object(body), status: status, headers: headers)
    }

    /// The answer in the shape `request` asked for (``GoTrueOperation/isVersioned(_:)``).
    func response(for request: Request) -> Response {
        response(versioned: GoTrueOperation.isVersioned(request.header("X-Supabase-Api-Version")))
    }
}

extension GoTrueError: HTTPResponseError {
    var status: HTTPResponse.Status { HTTPResponse.Status(code: httpStatus) }

    func response(from request: Request, context: some RequestContext) throws -> Response { response(for: request) }
}

extension GoTrueError {
    static func badRequest(_ code: String, _ message: String) -> GoTrueError {
        GoTrueError(httpStatus: 400, code: code, message: message)
    }
    static func unprocessable(_ code: String, _ message: String) -> GoTrueError {
        GoTrueError(httpStatus: 422, code: code, message: message)
    }
    static func forbidden(_ code: String, _ message: String) -> GoTrueError {
        GoTrueError(httpStatus: 403, code: code, message: message)
    }
    static func notFound(_ code: String, _ message: String) -> GoTrueError {
        GoTrueError(httpStatus: 404, code: code, message: message)
    }
    static func unexpected(_ message: String) -> GoTrueError {
        GoTrueError(httpStatus: 500, code: "unexpected_failure", message: message)
    }
    static func oauth(_ error: String, _ description: String) -> GoTrueError {
        GoTrueError(httpStatus: 400, code: error, message: description, oauthError: error)
    }

    static let noAuthorization = GoTrueError(
        httpStatus: 401, code: "no_authorization", message: "This endpoint requires a valid Bearer token")
    static func badJWT(_ detail: String) -> GoTrueError {
        .forbidden("bad_jwt", "invalid JWT: unable to parse or verify signature, \(detail)")
    }
    static let userNotFound = forbidden("user_not_found", "User from sub claim in JWT does not exist")
    static let sessionNotFound = forbidden("session_not_found", "Session from session_id claim in JWT does not exist")
    static let notAdmin = forbidden("not_admin", "User not allowed")
    static let invalidCredentials = badRequest("invalid_credentials", "Invalid login credentials")
    static let otpExpired = forbidden("otp_expired", "Token has expired or is invalid")
    static let emailExists = unprocessable("email_exists", "A user with this email address has already been registered")
    static let userAlreadyExists = unprocessable("user_already_exists", "User already registered")
    static let refreshTokenNotFound = badRequest(
        "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found")
    static let refreshTokenAlreadyUsed = badRequest("refresh_token_already_used", "Invalid Refresh Token: Already Used")
    static let refreshTokenInvalid = badRequest("validation_failed", "Refresh token is not valid")
    static let signupDisabled = unprocessable("signup_disabled", "Signups not allowed for this instance")
    static let anonymousDisabled = unprocessable("anonymous_provider_disabled", "Anonymous sign-ins are disabled")
    static let overRequestRateLimit = GoTrueError(
        httpStatus: 429, code: "over_request_rate_limit", message: "Request rate limit reached")
    static let adminUserNotFound = notFound("user_not_found", "User not found")
    static let userBanned = badRequest("user_banned", "User is banned")
    static func unverifiedEmail(_ provider: String) -> GoTrueError {
        unprocessable("email_not_confirmed", "Unverified email with \(provider): verify it with the provider first")
    }
    static let noProfile = unexpected("Error getting user profile from external provider")
    /// GoTrue's answer with the phone provider off: 400, except the password grant's 422.
    static func phoneProviderDisabled(_ message: String, status: Int = 400) -> GoTrueError {
        GoTrueError(httpStatus: status, code: "phone_provider_disabled", message: message)
    }
    static func validation(_ message: String) -> GoTrueError { badRequest("validation_failed", message) }
    static func badJSON(_ detail: String) -> GoTrueError {
        badRequest("bad_json", "Could not parse request body as JSON: \(detail)")
    }
    static func weakPassword(minimum: Int) -> GoTrueError {
        GoTrueError(
            httpStatus: 422, code: "weak_password", message: "Password should be at least \(minimum) characters.",
            weakPasswordReasons: ["length"])
    }
    static func overEmailSendRateLimit(seconds: Int) -> GoTrueError {
        GoTrueError(
            httpStatus: 429, code: "over_email_send_rate_limit",
            message: "For security purposes, you can only request this after \(seconds) seconds.")
    }
}
