import HTTPTypes
import Hummingbird
import SesameLocalAPI

/// An error the Auth emulator answers with, in Identity Toolkit's envelope:
/// `{"error":{"code":…,"message":…,"errors":[{"message","reason","domain"}],"status"?}}`.
///
/// Business errors are 400 with no `status` (the emulator's habit); other classes carry one.
struct IdentityToolkitError: Error, Sendable, Equatable {
    var httpStatus: Int
    var message: String
    var reason: String
    /// The envelope's `status` (`INVALID_ARGUMENT`…), absent on business errors.
    var statusName: String?

    /// A 400 business error such as `EMAIL_EXISTS` or `WEAK_PASSWORD : …`.
    static func invalid(_ message: String) -> IdentityToolkitError {
        IdentityToolkitError(httpStatus: 400, message: message, reason: "invalid", statusName: nil)
    }

    /// 400 `INVALID_ARGUMENT` for a request that does not fit the schema.
    static func invalidArgument(_ message: String, reason: String = "invalid") -> IdentityToolkitError {
        IdentityToolkitError(httpStatus: 400, message: message, reason: reason, statusName: "INVALID_ARGUMENT")
    }

    /// 400 for a body that is not JSON.
    static func parseError(_ detail: String) -> IdentityToolkitError {
        invalidArgument("Invalid JSON payload received. \(detail)", reason: "parseError")
    }

    /// 501 for inputs the emulator does not support.
    static func notImplemented(_ message: String) -> IdentityToolkitError {
        IdentityToolkitError(httpStatus: 501, message: message, reason: "unimplemented", statusName: "NOT_IMPLEMENTED")
    }

    static let missingAPIKey = IdentityToolkitError(
        httpStatus: 403, message: "The request is missing a valid API key.", reason: "forbidden",
        statusName: "PERMISSION_DENIED")

    static let unauthenticated = IdentityToolkitError(
        httpStatus: 401,
        message:
            "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
        reason: "unauthorized", statusName: "UNAUTHENTICATED")

    static let notFound = IdentityToolkitError(
        httpStatus: 404, message: "Not Found", reason: "notFound", statusName: "NOT_FOUND")

    static let payloadTooLarge = IdentityToolkitError(
        httpStatus: 413, message: "Request payload exceeds the 1048576-byte limit.", reason: "payloadTooLarge",
        statusName: "INVALID_ARGUMENT")

    static let insufficientPermission = invalid(
        "INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id.")

    /// The JSON envelope.
    var envelope: JSONValue {
        var body: [String: JSONValue] = [
            "code": .int(httpStatus), "message": .string(message),
            "errors": [["message": .string(message), "reason": .string(reason), "domain": "global"]],
        ]
        body["status"] = statusName.map(JSONValue.string)
        return ["error": .object(body)]
    }
}

extension IdentityToolkitError: HTTPResponseError {
    var status: HTTPResponse.Status { HTTPResponse.Status(code: httpStatus) }

    /// The error in its envelope.
    var response: Response { .json(envelope, status: status) }

    func response(from request: Request, context: some RequestContext) throws -> Response { response }
}
