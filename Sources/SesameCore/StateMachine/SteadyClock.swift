import Foundation

/// A calendar that moves only as the base clock's instants do (on Linux, Swift's continuous
/// clock is `CLOCK_BOOTTIME`: it counts a suspend, and nothing sets it), starting from the base's
/// calendar time when it was made. A jump of the base's calendar (NTP stepping the clock after a
/// resume, a dead RTC set right, `date -s`) moves neither ``date`` nor anything stamped with it:
/// a token obtained an hour ago still has the validity the backend gave it, whichever way the
/// calendar jumped. The jump is ``calendarOffset``, which the edges add to the dates they show.
///
/// The daemon gives one to the session service and to every adapter that stamps a token, so
/// all of its dates are on this one timeline.
///
/// Inlinable, so the daemon's `SteadyClock<SystemWallClock>` is specialised where it is used:
/// read on every token request, the generic form cost a microsecond of metadata lookups.
public struct SteadyClock<Base: WallClock>: WallClock {
    public typealias Instant = Base.Instant

    @usableFromInline let base: Base
    @usableFromInline let startDate: Date
    @usableFromInline let startInstant: Base.Instant

    @inlinable
    public init(base: Base) {
        self.base = base
        startInstant = base.now
        startDate = base.date
    }

    @inlinable public var now: Base.Instant { base.now }
    @inlinable public var minimumResolution: Duration { base.minimumResolution }

    @inlinable
    public var date: Date {
        startDate.addingTimeInterval(SaturatingTime.seconds(startInstant.duration(to: base.now)))
    }

    /// The calendar's jumps since this clock was made, in whole seconds (what the two clocks
    /// drift apart by between jumps, microseconds, stays zero).
    @inlinable
    public var calendarOffset: TimeInterval {
        (base.date.timeIntervalSince(date) + base.calendarOffset).rounded()
    }

    @inlinable
    public func sleep(until deadline: Base.Instant, tolerance: Duration?) async throws {
        try await base.sleep(until: deadline, tolerance: tolerance)
    }
}
