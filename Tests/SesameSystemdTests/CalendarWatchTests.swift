import Foundation
import Testing

@testable import SesameSystemd

#if canImport(Glibc)
import Glibc
#endif

/// ``CalendarWatch`` against the real kernel: the test sets the calendar clock to what it reads
/// (a step of microseconds, which no other program notices; it needs CAP_SYS_TIME, which the test
/// machines' root has), as NTP or `date -s` sets it.
@Suite("CalendarWatch: the kernel says when the calendar clock is set", .serialized, .timeLimit(.minutes(1)))
struct CalendarWatchTests {
    @Test("each setting of CLOCK_REALTIME arrives once, and the watch is armed again for the next")
    func settingsArrive() async throws {
        let changes = CalendarWatch.changes { reason in Issue.record("no timerfd: \(reason)") }
        var iterator = changes.makeAsyncIterator()
        try Self.setCalendarToItself()
        #expect(await iterator.next() != nil)
        try Self.setCalendarToItself()
        #expect(await iterator.next() != nil)
    }

    /// `clock_settime(CLOCK_REALTIME, clock_gettime(CLOCK_REALTIME))`.
    static func setCalendarToItself() throws {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        guard clock_settime(CLOCK_REALTIME, &now) == 0 else {
            throw CalendarNotSettable(reason: String(cString: strerror(errno)))
        }
    }

    struct CalendarNotSettable: Error, CustomStringConvertible {
        var reason: String
        var description: String { "setting CLOCK_REALTIME needs CAP_SYS_TIME (run as root): \(reason)" }
    }
}
