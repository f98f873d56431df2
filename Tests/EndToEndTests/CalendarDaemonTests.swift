import Foundation
import SesameLocalAPI
import SesameTesting
import Testing

/// Issue 36, item 4, over the real daemon: the kernel tells it the calendar clock was set
/// (`CalendarWatch`), and it goes on serving the token it holds. The clock is set to its own
/// reading (a step of microseconds): the real calendar cannot be moved by hours under other
/// tests; what a jump of hours does is in CalendarJumpServiceTests and CalendarJumpSocketTests.
@Suite("sesamed when the calendar clock is set", .serialized, .timeLimit(.minutes(2)))
struct CalendarDaemonTests {
    @Test("the daemon hears each setting from the kernel and serves the same token, with no refresh")
    func hearsTheSetting() async throws {
        try await withEmulatorAndDaemon { emulator, daemon in
            let request = #"{"jsonrpc":"2.0","id":1,"method":"getIdToken"}"#
            let before = try rawCall(daemon.socketPath, request)["result"]
            let refreshes = try await emulator.refreshCount()
            for count in 1...2 {
                try SystemCalendar.setToItsOwnReading()
                try await eventually("the daemon heard setting \(count)") {
                    daemon.log.components(separatedBy: "The calendar clock was set").count > count
                }
            }
            #expect(try rawCall(daemon.socketPath, request)["result"] == before)
            #expect(try await emulator.refreshCount() == refreshes)
        }
    }
}
