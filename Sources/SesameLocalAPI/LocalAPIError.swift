/// The `error` member of a failed response: a code, a sentence for people, and `data` whose
/// `reason` clients branch on.
public struct LocalAPIError: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: LocalAPIErrorCode
    public var message: String
    /// Always holds `reason`; conflicts add `email`, `providerId`, `providers`; backend errors
    /// `retryAfterMs`; permission errors `requiredRole`.
    public var data: [String: JSONValue]

    public init(code: LocalAPIErrorCode, reason: String, message: String, data: [String: JSONValue] = [:]) {
        self.code = code
        self.message = message
        var data = data
        data["reason"] = .string(reason)
        self.data = data
    }

    public var reason: String { data["reason"]?.stringValue ?? "" }

    public var json: JSONValue {
        .object(["code": .integer(Int64(code.rawValue)), "message": .string(message), "data": .object(data)])
    }

    /// Reads an `error` member; nil when it does not have the protocol's shape.
    public init?(json: JSONValue) {
        guard let code = json["code"]?.int64Value, let message = json["message"]?.stringValue else { return nil }
        self.code = LocalAPIErrorCode(rawValue: Int(code))
        self.message = message
        self.data = json["data"]?.objectValue ?? [:]
    }

    public var description: String { "\(code) \(reason): \(message)" }

    public static func parseError(_ detail: String) -> Self {
        .init(code: .parseError, reason: "parse-error", message: "The line is not valid JSON (\(detail)).")
    }

    public static func invalidRequest(_ message: String) -> Self {
        .init(code: .invalidRequest, reason: "invalid-request", message: message)
    }

    public static let requestTooLarge = Self(
        code: .invalidRequest, reason: "request-too-large",
        message:
            "The request line is longer than \(ProtocolLimits.maximumRequestLineBytes) bytes; the connection is closed."
    )

    public static func methodNotFound(_ method: String) -> Self {
        .init(
            code: .methodNotFound, reason: "method-not-found",
            message: "There is no method '\(method.prefix(64))' in protocol version \(ProtocolLimits.version).")
    }

    public static func invalidParams(_ message: String) -> Self {
        .init(code: .invalidParams, reason: "invalid-params", message: message)
    }

    public static let internalError = Self(
        code: .internalError, reason: "internal-error",
        message: "The daemon hit an internal error; it keeps running. Please report this with the daemon's log.")

    public static func permissionDenied(requiredRole: LocalAPIRole) -> Self {
        .init(
            code: .permission, reason: "permission-denied",
            message: "This needs the \(requiredRole.rawValue) role; ask the administrator to grant it in [access].",
            data: ["requiredRole": .string(requiredRole.rawValue)])
    }

    public static let tooManyConnections = Self(
        code: .state, reason: "too-many-connections",
        message: "The daemon has too many connections; try again later.")
}
