import Foundation
import SesameTesting
import Testing

@testable import SesameSystemd

/// ``CalendarWatch`` against the real kernel: the test sets the calendar clock to what it reads
/// (a step of microseconds, which no other program notices; it needs CAP_SYS_TIME, which the test
/// machines' root has), as NTP or `date -s` sets it.
@Suite("CalendarWatch: the kernel says when the calendar clock is set", .serialized, .timeLimit(.minutes(1)))
struct CalendarWatchTests {
    @Test("each setting of CLOCK_REALTIME arrives once, and the watch is armed again for the next")
    func settingsArrive() async throws {
        let changes = CalendarWatch.changes { reason in Issue.record("no timerfd: \(reason)") }
        var iterator = changes.makeAsyncIterator()
        try SystemCalendar.setToItsOwnReading()
        #expect(await iterator.next() != nil)
        try SystemCalendar.setToItsOwnReading()
        #expect(await iterator.next() != nil)
    }
}
