/// What the fault extension does to one request.
enum FaultDecision: Sendable, Equatable {
    /// Handle normally after `delayMs` milliseconds.
    case proceed(delayMs: Int)
    /// Answer `status` with `message` in the port's error envelope after `delayMs`.
    case fail(delayMs: Int, status: Int, message: String)
    /// Close the connection without answering.
    case drop
}
