import CSystemd
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Tells when the calendar clock was set: NTP stepping it after a resume, `date -s`, a dead RTC
/// set right. A `timerfd` on `CLOCK_REALTIME` armed far in the future with
/// `TFD_TIMER_CANCEL_ON_SET`: the kernel fails its read with `ECANCELED` whenever the clock is
/// set, and the watch arms it again. Its thread sleeps in poll(2) with no timeout: no wake-up
/// while the clock is left alone.
public enum CalendarWatch {
    // sys/timerfd.h's flags (Linux's values), spelled out: the static-runtime release build does
    // not see the header's enum constants.
    private static let nonBlocking: Int32 = 0o4000
    private static let closeOnExec: Int32 = 0o2000000
    private static let absoluteCancelOnSet: Int32 = 0x1 | 0x2
    /// The moment the timer is armed for: year 2223, before the kernel's largest time.
    private static let farFuture = 8_000_000_000

    /// One element each time the calendar clock is set, until the consumer goes away.
    /// - Parameter unavailable: called once when the timer cannot be made (a sandbox without
    ///   timerfd), with the reason; the stream then ends.
    public static func changes(unavailable: @escaping @Sendable (String) -> Void) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let timerFD = timerfd_create(CLOCK_REALTIME, nonBlocking | closeOnExec)
        var ends: [Int32] = [-1, -1]
        guard timerFD >= 0, arm(timerFD), pipe(&ends) == 0 else {
            unavailable("timerfd: \(String(cString: strerror(errno)))")
            if timerFD >= 0 { close(timerFD) }
            continuation.finish()
            return stream
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let (stopRead, stopWrite) = (ends[0], ends[1])
        continuation.onTermination = { _ in
            var byte: UInt8 = 1
            _ = write(stopWrite, &byte, 1)
        }
        let thread = Thread {
            watch(timerFD, stop: stopRead) { continuation.yield() }
            continuation.finish()
            for fd in [timerFD, stopRead, stopWrite] { close(fd) }
        }
        thread.name = "sesame-calendar"
        thread.start()
        return stream
    }

    private static func arm(_ timerFD: Int32) -> Bool {
        var deadline = itimerspec()
        deadline.it_value.tv_sec = farFuture
        return timerfd_settime(timerFD, absoluteCancelOnSet, &deadline, nil) == 0
    }

    /// Waits until `stop` is readable, calling `report` each time the clock was set.
    private static func watch(_ timerFD: Int32, stop: Int32, report: () -> Void) {
        var expirations: UInt64 = 0
        while true {
            var descriptors = [
                pollfd(fd: timerFD, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stop, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if descriptors[1].revents != 0 { return }
            guard descriptors[0].revents != 0 else { continue }
            let read = Glibc.read(timerFD, &expirations, MemoryLayout<UInt64>.size)
            if read < 0 && errno == ECANCELED {
                guard arm(timerFD) else { return }
                report()
            }
        }
    }
}
