import NIOHTTP1

/// A refused answer, its error body decoded once, as a ``BackendErrorClassifier`` sees it.
public struct HTTPFailure<Body: Sendable>: Sendable {
    /// The secret-free name of the call (``HTTPRequest/name``).
    public var call: String
    public var status: Int
    public var headers: HTTPHeaders
    /// The error body; nil when the answer is not JSON of that shape.
    public var body: Body?
    /// The answer's `Retry-After` in milliseconds (``RetryAfter``); nil when absent or unreadable.
    public var retryAfterMs: Int?

    public init(call: String, status: Int, headers: HTTPHeaders = [:], body: Body?, retryAfterMs: Int? = nil) {
        self.call = call
        self.status = status
        self.headers = headers
        self.body = body
        self.retryAfterMs = retryAfterMs
    }
}
