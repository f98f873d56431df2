import HTTPTypes
import Hummingbird
import SesameLocalAPI

/// An error the database port answers with: `{"error":"<message>"}` and an HTTP status.
struct DatabaseError: Error, Sendable, Equatable {
    var httpStatus: Int
    var message: String

    static let invalidJSON = badRequest("Invalid data; couldn't parse JSON object, array, or value.")
    static let methodNotAllowed = DatabaseError(httpStatus: 405, message: "Method not allowed")
    static let ifMatchOnlyOnPutAndDelete = badRequest("if-match is supported only on PUT and DELETE requests.")
    static let payloadTooLarge = DatabaseError(
        httpStatus: 413, message: "Payload too large: the limit is 1048576 bytes.")

    static func badRequest(_ message: String) -> DatabaseError { DatabaseError(httpStatus: 400, message: message) }

    static func invalidPath(_ path: String) -> DatabaseError {
        badRequest(
            "Invalid path: \(path). Paths must be non-empty strings and can't contain "
                + "\".\", \"#\", \"$\", \"[\", or \"]\"")
    }

    static func invalidKey(_ key: String) -> DatabaseError {
        badRequest(
            "Invalid data; couldn't parse key \"\(key)\". Keys can't be empty or contain "
                + "\".\", \"#\", \"$\", \"/\", \"[\", \"]\" or control characters.")
    }

    /// The error in the database's envelope.
    var response: Response { .json(["error": .string(message)] as JSONValue, status: status) }
}

extension DatabaseError: HTTPResponseError {
    var status: HTTPResponse.Status { HTTPResponse.Status(code: httpStatus) }

    func response(from request: Request, context: some RequestContext) throws -> Response { response }
}
