import Foundation

/// A clock that can sleep and also tell the calendar time, so token expiry (a `Date`) and
/// waiting (a `Duration`) come from one injected source: the daemon's is a ``SteadyClock``;
/// tests use a manual one.
public protocol WallClock: Clock where Duration == Swift.Duration {
    /// The current calendar time according to this clock: the time every date the daemon
    /// stamps and compares is on.
    var date: Date { get }
    /// How far the calendar a person (or another program) reads is ahead of ``date``: zero for
    /// a clock that is the calendar, the sum of the calendar's jumps for a ``SteadyClock``.
    /// Dates shown outside the daemon are ``date``'s plus this.
    var calendarOffset: TimeInterval { get }
}

extension WallClock {
    @inlinable public var calendarOffset: TimeInterval { 0 }
}
