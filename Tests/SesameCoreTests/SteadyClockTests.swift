import Foundation
import SesameCore
import SesameTesting
import Testing

/// A wall clock whose calendar can be set, as the system's is by NTP or `date -s`: its instants
/// (and sleeps) are a manual clock's, its `date` that clock's plus whatever the calendar was set by.
private final class SettableCalendar: WallClock, @unchecked Sendable {
    let steady = ManualClock()
    private let lock = NSLock()
    private var shift: TimeInterval = 0

    var now: ManualClock.Instant { steady.now }
    var minimumResolution: Duration { .zero }
    var date: Date { steady.date.addingTimeInterval(lock.withLock { shift }) }

    func set(by seconds: TimeInterval) { lock.withLock { shift += seconds } }

    func sleep(until deadline: ManualClock.Instant, tolerance: Duration?) async throws {
        try await steady.sleep(until: deadline, tolerance: tolerance)
    }
}

/// Issue 36, item 4: the daemon's timeline ignores the calendar's jumps (``SteadyClock``).
@Suite("SteadyClock: a calendar that jumps moves nothing the daemon decides")
struct SteadyClockTests {
    @Test("the calendar set 2 h ahead, then a day back: date moves only with the instants; calendarOffset is the jumps")
    func jumpsBothWays() {
        let base = SettableCalendar()
        let clock = SteadyClock(base: base)
        let start = clock.date
        #expect(start == base.date)
        #expect(clock.calendarOffset == 0)

        base.set(by: 7200)
        #expect(clock.date == start)
        #expect(clock.calendarOffset == 7200)

        base.steady.advance(seconds: 10)
        #expect(clock.date == start.addingTimeInterval(10))
        #expect(clock.calendarOffset == 7200)

        base.set(by: -86_400)
        #expect(clock.date == start.addingTimeInterval(10))
        #expect(clock.calendarOffset == 7200 - 86_400)
        #expect(clock.date.addingTimeInterval(clock.calendarOffset) == base.date)
    }

    @Test("a drift of less than half a second between the two clocks shows as no jump at all")
    func drift() {
        let base = SettableCalendar()
        let clock = SteadyClock(base: base)
        base.set(by: 0.3)
        #expect(clock.calendarOffset == 0)
        base.set(by: 0.4)
        #expect(clock.calendarOffset == 1)
    }

    @Test("a steady clock over a manual clock whose calendar jumped adds that jump")
    func composes() {
        let manual = ManualClock()
        manual.jumpCalendar(seconds: -3600)
        let clock = SteadyClock(base: manual)
        #expect(clock.calendarOffset == -3600)
        #expect(clock.date == manual.date)
    }

    @Test(
        "a token issued more than a minute after now: validity unknown, so not valid and nothing left; within a minute it is as before"
    )
    func issuedInTheFuture() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        func token(issuedIn seconds: TimeInterval) -> IDToken {
            IDToken(
                rawValue: "t", expiresAt: now.addingTimeInterval(seconds + 3600),
                issuedAt: now.addingTimeInterval(seconds),
                signInProvider: "anonymous")
        }
        let later = token(issuedIn: 86_400)
        #expect(later.isIssuedInTheFuture(at: now))
        #expect(!later.isValid(for: 0, at: now))
        #expect(later.remainingValidity(at: now) == 0)
        let skewed = token(issuedIn: 30)
        #expect(!skewed.isIssuedInTheFuture(at: now))
        #expect(skewed.isValid(for: 3600, at: now))
        #expect(skewed.remainingValidity(at: now) == 3630)
    }
}
