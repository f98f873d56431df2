import Foundation

/// Something that ends at a deadline on the service's clock (a browser flow, a second-factor
/// challenge), as a ``StepMachine``: wait until the deadline, then end it, unless it ended
/// first. The time arrives in the event; a clock that wakes early only waits again.
///
/// Nothing is written: after a crash the thing that would expire is gone with the memory that
/// held it.
public struct Expiry: Sendable, Hashable {
    public enum Action: Sendable, Hashable {
        /// Sleep this many seconds, then feed ``Event/woke(at:)``.
        case wait(TimeInterval)
        /// End it as expired, then feed ``Event/expired``.
        case expire
        /// Nothing more to do.
        case stop
    }

    public enum Event: Sendable, Hashable {
        case woke(at: Date)
        case expired
        /// It ended before its deadline (answered, cancelled, replaced).
        case closed
    }

    public let deadline: Date

    public init(deadline: Date) {
        self.deadline = deadline
    }

    /// The first action at `now`: the wait until the deadline, or the end when it passed.
    public func start(at now: Date) -> Action {
        now >= deadline ? .expire : .wait(deadline.timeIntervalSince(now))
    }

    public mutating func handle(_ event: Event) -> Action {
        switch event {
        case .woke(let now): start(at: now)
        case .expired, .closed: .stop
        }
    }
}

extension Expiry: StepMachine {
    /// Waiting and ending never fail (a cancelled wait is the end of the task).
    public static func failed(_ error: Never) -> Event {}
}
