/// How long a command waits for sesamed's answer by default (docs/sesamectl.md, Timeouts).
enum AnswerWait: Sendable, Equatable {
    /// Answered from the daemon's memory (`status`, `merges list`, the first `hello` of
    /// `watch`): a daemon that is silent for 5 s is hung or stopped.
    case daemon
    /// The daemon calls the backend first (sign-in, token refresh, usernames, …). Each of its
    /// backend calls is bounded at 10 s and a flow makes a few, so 30 s.
    case backend

    var defaultTimeout: Duration {
        switch self {
        case .daemon: .seconds(5)
        case .backend: .seconds(30)
        }
    }
}
