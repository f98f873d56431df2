import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A calendar that moves only as Swift's continuous clock does (on Linux `CLOCK_BOOTTIME`: it
/// counts a suspend, and nothing sets it), starting from the calendar's reading when it was
/// made. A jump of the calendar (NTP stepping the clock after a resume, a dead RTC set right,
/// `date -s`) moves neither ``date`` nor anything stamped with it: a token obtained an hour ago
/// still has the validity the backend gave it, whichever way the calendar jumped. The jump is
/// ``calendarOffset``, which the edges add to the dates they show.
///
/// The daemon gives one to the session service and to every adapter that stamps a token, so
/// all of its dates are on this one timeline. Concrete, not generic over a base clock: it is
/// read on every token request, and a generic clock called through the service's type-erased
/// closures paid for its metadata each time.
public struct SteadyClock: WallClock {
    /// `CLOCK_BOOTTIME`'s reading when the clock was made, in seconds.
    private let startSeconds: Double
    private let startDate: Date
    private let calendar: @Sendable () -> Date

    /// - Parameter calendar: what a person's clock reads (the system's; tests pass one they set).
    public init(calendar: @escaping @Sendable () -> Date = { Date() }) {
        self.calendar = calendar
        startSeconds = Self.bootSeconds()
        startDate = calendar()
    }

    /// `CLOCK_BOOTTIME` in seconds, the clock `ContinuousClock` reads on Linux, read directly:
    /// `date` is read on every token request.
    private static func bootSeconds() -> Double {
        var reading = timespec()
        clock_gettime(CLOCK_BOOTTIME, &reading)
        return Double(reading.tv_sec) + Double(reading.tv_nsec) / 1e9
    }

    public var now: ContinuousClock.Instant { ContinuousClock.now }
    public var minimumResolution: Duration { ContinuousClock().minimumResolution }

    public var date: Date {
        startDate.addingTimeInterval(Self.bootSeconds() - startSeconds)
    }

    /// The calendar's jumps since this clock was made, in whole seconds (what the two clocks
    /// drift apart by between jumps, microseconds, stays zero).
    public var calendarOffset: TimeInterval {
        calendar().timeIntervalSince(date).rounded()
    }

    public func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
        try await ContinuousClock().sleep(until: deadline, tolerance: tolerance)
    }
}
