import Foundation

/// The rate limit the backend reported (PROTOCOL.md, "Rate limits"): `State.rateLimit` while
/// `connectivity` is `rate-limited`. The daemon retries by itself; a held token is still served.
public struct SesameRateLimit: Sendable, Hashable {
    /// What was limited: a method's name (`signInAnonymously`, `signIn`…) or `refresh`.
    public var operation: String
    /// When the daemon may call again: the backend's `Retry-After`, else the daemon's own wait.
    public var retryAt: Date
    /// The limit's name when the backend told it.
    public var limit: String?

    public init(operation: String, retryAt: Date, limit: String? = nil) {
        self.operation = operation
        self.retryAt = retryAt
        self.limit = limit
    }

    /// The protocol object; `limit` only when known.
    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "operation": .string(operation), "retryAt": .string(WireTime.string(retryAt)),
        ]
        if let limit { object["limit"] = .string(limit) }
        return .object(object)
    }

    /// Reads the protocol object; nil for null or without `operation` and `retryAt`.
    public init?(json: JSONValue) {
        guard let operation = json["operation"]?.stringValue,
            let retryAt = json["retryAt"]?.stringValue.flatMap(WireTime.parse)
        else { return nil }
        self.init(operation: operation, retryAt: retryAt, limit: json["limit"]?.stringValue)
    }
}
