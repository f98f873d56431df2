import Foundation
import Testing

@testable import SesameSystemd

@Suite struct SystemdNotifierTests {
    @Test(arguments: [false, true])
    func messagesArriveOnTheNotifySocket(abstract: Bool) throws {
        let listener = try DatagramListener(abstract: abstract)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": listener.address])
        #expect(notifier.isEnabled)
        try notifier.notify(.ready, .status("anonymous, token valid for 54 min"))
        #expect(try listener.receive() == "READY=1\nSTATUS=anonymous, token valid for 54 min")
        try notifier.notify(.watchdog)
        #expect(try listener.receive() == "WATCHDOG=1")
        try notifier.notify(.status("two\nlines"))
        #expect(try listener.receive() == "STATUS=two lines")
        try notifier.notify(.stopping)
        #expect(try listener.receive() == "STOPPING=1")
        try notifier.notify(.reloading)
        #expect(try listener.receive() == "RELOADING=1")
    }

    @Test("a manager that never reads: notify never blocks, a full queue is an error", .timeLimit(.minutes(1)))
    func fullQueueNeverBlocks() throws {
        let listener = try DatagramListener(abstract: false)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": listener.address])
        var refused = 0
        // A datagram socket's queue holds few messages (net.unix.max_dgram_qlen, 10 by default):
        // well before 200, a blocking send would wait forever.
        for _ in 0..<200 {
            do { try notifier.notify(.watchdog) } catch { refused += 1 }
        }
        #expect(refused > 0)
        #expect(try listener.receive() == "WATCHDOG=1")
    }

    @Test func silentWithoutNotifySocket() throws {
        for environment in [[:], ["NOTIFY_SOCKET": ""], ["NOTIFY_SOCKET": "relative/path"]] {
            let notifier = SystemdNotifier(environment: environment)
            #expect(!notifier.isEnabled)
            try notifier.notify(.ready, .status("x"))
        }
    }

    @Test func unreachableSocketIsAnError() {
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": "/nonexistent/sesame/notify.sock"])
        let error = #expect(throws: SystemdNotifierError.self) { try notifier.notify(.ready) }
        #expect(error?.code == ENOENT)
        #expect(error?.socketPath == "/nonexistent/sesame/notify.sock")
    }

    @Test func watchdogIntervalIsHalfOfWatchdogUsec() {
        let pid = getpid()
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "30000000"]).watchdogInterval == .seconds(15))
        #expect(
            SystemdNotifier(environment: ["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "\(pid)"]).watchdogInterval
                == .seconds(1))
        #expect(
            SystemdNotifier(environment: ["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "\(pid + 1)"]).watchdogInterval
                == nil)
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "0"]).watchdogInterval == nil)
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "soon"]).watchdogInterval == nil)
        #expect(SystemdNotifier(environment: [:]).watchdogInterval == nil)
    }

    @Test func tooLongSocketPathIsAnError() {
        let path = "/" + String(repeating: "a", count: 200)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": path])
        #expect(throws: SystemdNotifierError.self) { try notifier.notify(.ready) }
    }
}
