import Foundation

/// The backend refused an operation for a rate limit (PROTOCOL.md, "Rate limits"):
/// `State.rateLimit` while `connectivity` is `rate-limited`.
public struct RateLimit: Sendable, Hashable {
    /// What was limited: a method of the local API, or `refresh` for the daemon's own refresh.
    public var operation: String
    /// When the backend said to try again (its `Retry-After`, else the daemon's wait).
    public var retryAt: Date
    /// The limit's name when the backend told it; nil otherwise.
    public var limit: String?

    public init(operation: String, retryAt: Date, limit: String? = nil) {
        self.operation = operation
        self.retryAt = retryAt
        self.limit = limit
    }
}
