import Foundation
import SesameCore

/// A clock that moves only when a test says so. Sleepers wake when ``advance(by:)`` passes
/// their deadline; nothing ever waits for real time.
public final class ManualClock: WallClock, @unchecked Sendable {
    public struct Instant: InstantProtocol, Sendable {
        public var offset: Duration
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let id: UInt64
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var sleepers: [Sleeper] = []
    private var nextID: UInt64 = 0
    private let start: Date
    private var calendarShift: TimeInterval = 0

    /// - Parameter start: the calendar time at offset zero.
    public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        self.start = start
    }

    public var now: Instant { lock.withLock { current } }
    public var minimumResolution: Duration { .zero }
    public var date: Date {
        let offset = now.offset.components
        return start.addingTimeInterval(Double(offset.seconds) + Double(offset.attoseconds) / 1e18)
    }

    /// How far the calendar jumped (``jumpCalendar(seconds:)``): `date` stays on the steady
    /// timeline, as a ``SteadyClock``'s does.
    public var calendarOffset: TimeInterval { lock.withLock { calendarShift } }

    /// What the calendar reads now: ``date`` plus ``calendarOffset``.
    public var calendarDate: Date { date.addingTimeInterval(calendarOffset) }

    /// The calendar jumps by `seconds` (negative: back), as NTP stepping the clock after a
    /// resume or `date -s` does; no instant moves and no sleeper wakes (issue 36, item 4).
    public func jumpCalendar(seconds: TimeInterval) {
        lock.withLock { calendarShift += seconds }
    }

    /// How many tasks are sleeping on this clock now.
    public var sleeperCount: Int { lock.withLock { sleepers.count } }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id: UInt64 = lock.withLock {
            nextID += 1
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Bool = lock.withLock {
                    if deadline <= current || Task.isCancelled { return true }
                    sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return false
                }
                if resumeNow {
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        continuation.resume()
                    }
                }
            }
        } onCancel: {
            let sleeper: Sleeper? = lock.withLock {
                guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward and wakes every sleeper whose deadline has come.
    public func advance(by duration: Duration) {
        let due: [Sleeper] = lock.withLock {
            current = current.advanced(by: duration)
            let due = sleepers.filter { $0.deadline <= current }
            sleepers.removeAll { $0.deadline <= current }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Moves time forward as a suspend does to a timer on a clock that stops while the machine
    /// sleeps (CLOCK_MONOTONIC): the time moves, but no sleeper wakes until something else wakes
    /// it or time is advanced again. For issue 36's "simulated 8-hour suspend".
    public func suspend(seconds: Double) {
        lock.withLock { current = current.advanced(by: .milliseconds(Int64(seconds * 1000))) }
    }

    /// Moves time forward by seconds.
    public func advance(seconds: Double) {
        advance(by: .milliseconds(Int64(seconds * 1000)))
    }
}
