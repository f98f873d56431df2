import SesameCore

/// The tokens feature's own field: the one refresh of the current session's tokens that
/// concurrent callers share. `idle`, or `refreshing` with the callers that arrived while it runs
/// (they get its outcome). Lives in ``SessionFeatures``, on the owner's executor (not Sendable).
struct TokenRefresh {
    typealias Waiter = CheckedContinuation<Result<Session, RemoteAuthError>, Never>

    enum State {
        case idle
        case refreshing(waiters: [Waiter])
    }

    private(set) var state = State.idle

    var isRefreshing: Bool {
        if case .refreshing = state { return true }
        return false
    }

    /// A refresh starts: later callers wait for it.
    mutating func begin() {
        precondition(!isRefreshing, "TokenRefresh: a refresh is already running")
        state = .refreshing(waiters: [])
    }

    /// A caller waits for the running refresh's outcome.
    mutating func wait(_ waiter: Waiter) {
        guard case .refreshing(var waiters) = state else { preconditionFailure("TokenRefresh: no refresh to wait for") }
        waiters.append(waiter)
        state = .refreshing(waiters: waiters)
    }

    /// The refresh ended: back to idle; returns the callers to give its outcome.
    mutating func finish() -> [Waiter] {
        guard case .refreshing(let waiters) = state else { return [] }
        state = .idle
        return waiters
    }
}

@available(*, unavailable)
extension TokenRefresh: Sendable {}
