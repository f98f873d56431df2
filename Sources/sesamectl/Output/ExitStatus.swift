/// The exit statuses of `sesamectl` (DESIGN.md).
enum ExitStatus: Int32, Sendable, Equatable {
    case success = 0
    /// An authentication or state error: the person must do something (the message says what).
    case failure = 1
    /// Bad usage: wrong arguments or options.
    case usage = 2
    /// The daemon cannot be reached (sysexits' EX_UNAVAILABLE).
    case unavailable = 69
}
