/// What the fault extension does to one request.
enum FaultDecision: Sendable, Equatable {
    /// Handle normally after `delayMs` milliseconds.
    case proceed(delayMs: Int)
    /// Answer `status` with `message` in the port's error envelope after `delayMs`, with a
    /// `Retry-After` header when `retryAfter` is set.
    case fail(delayMs: Int, status: Int, message: String, retryAfter: RetryAfter?)
    /// Answer `200` with a body that is not JSON after `delayMs`.
    case garbage(delayMs: Int)
    /// Close the connection without answering.
    case drop
    /// Reset the connection (TCP RST) without answering.
    case reset
}
