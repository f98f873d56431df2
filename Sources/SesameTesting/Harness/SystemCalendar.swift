import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Sets the system's calendar clock as NTP or `date -s` does, for tests of what hears it.
public enum SystemCalendar {
    /// `clock_settime(CLOCK_REALTIME, clock_gettime(CLOCK_REALTIME))`: the clock is set to its own
    /// reading, a step of microseconds no other program notices, which the kernel still reports
    /// to every `TFD_TIMER_CANCEL_ON_SET` timer. Needs CAP_SYS_TIME (root on the test machines).
    public static func setToItsOwnReading() throws {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        guard clock_settime(CLOCK_REALTIME, &now) == 0 else {
            throw HarnessError(
                "setting CLOCK_REALTIME needs CAP_SYS_TIME (run as root): \(String(cString: strerror(errno)))")
        }
    }
}
