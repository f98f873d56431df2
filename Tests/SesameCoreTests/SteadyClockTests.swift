import Foundation
import SesameCore
import Testing

/// A calendar a test sets, as NTP or `date -s` sets the system's: the real calendar plus a shift.
private final class SettableCalendar: @unchecked Sendable {
    private let lock = NSLock()
    private var shift: TimeInterval = 0

    var reading: Date { Date().addingTimeInterval(lock.withLock { shift }) }
    func set(by seconds: TimeInterval) { lock.withLock { shift += seconds } }
}

/// Issue 36, item 4: the daemon's timeline ignores the calendar's jumps (``SteadyClock``). Time
/// here is real and short: `date` moves by the test's own microseconds, the jumps by hours.
@Suite("SteadyClock: a calendar that jumps moves nothing the daemon decides")
struct SteadyClockTests {
    @Test(
        "the calendar set 2 h ahead, then a day back: date moves only with the continuous clock; calendarOffset is the jumps"
    )
    func jumpsBothWays() {
        let calendar = SettableCalendar()
        let clock = SteadyClock(calendar: { calendar.reading })
        let start = clock.date
        #expect(abs(start.timeIntervalSince(Date())) < 1)
        #expect(clock.calendarOffset == 0)

        calendar.set(by: 7200)
        #expect(abs(clock.date.timeIntervalSince(start)) < 1)
        #expect(clock.calendarOffset == 7200)

        calendar.set(by: -86_400)
        #expect(abs(clock.date.timeIntervalSince(start)) < 1)
        #expect(clock.calendarOffset == 7200 - 86_400)
        #expect(abs(clock.date.addingTimeInterval(clock.calendarOffset).timeIntervalSince(calendar.reading)) < 1)
    }

    @Test("date moves with the continuous clock, as a sleep does")
    func moves() async throws {
        let clock = SteadyClock()
        let start = clock.date
        try await clock.sleep(for: .milliseconds(50))
        let moved = clock.date.timeIntervalSince(start)
        #expect(moved >= 0.05 && moved < 5)
    }

    @Test("a drift of less than half a second between the two clocks shows as no jump at all")
    func drift() {
        let calendar = SettableCalendar()
        let clock = SteadyClock(calendar: { calendar.reading })
        calendar.set(by: 0.3)
        #expect(clock.calendarOffset == 0)
        calendar.set(by: 0.4)
        #expect(clock.calendarOffset == 1)
    }

    @Test(
        "a token issued more than a minute after now: validity unknown, so not valid and nothing left; within a minute it is as before"
    )
    func issuedInTheFuture() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        func token(issuedIn seconds: TimeInterval) -> IDToken {
            IDToken(
                rawValue: "t", expiresAt: now.addingTimeInterval(seconds + 3600),
                issuedAt: now.addingTimeInterval(seconds), signInProvider: "anonymous")
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
