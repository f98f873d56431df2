import Foundation
import SesameLocalAPI
import SesameTesting
import Testing

/// Issue 36, quiet: an idle daemon wakes only for the refresh, the watchdog and what it was asked
/// to do. `make bench` measures the minute (scripts/bench/idle_wakeups.py); this checks a few
/// seconds of the real daemon, where no timer is due at all.
@Suite("an idle sesamed sleeps", .serialized, .timeLimit(.minutes(2)))
struct IdleWakeupTests {
    @Test("signed in, memory given back, no client: its threads do not wake for 6 s (no polling timer)")
    func noClient() async throws {
        try await withEmulatorAndDaemon(settings: ["memory": ["release_when_idle": "0.3"]]) { _, daemon in
            try await eventually("the idle release", timeout: .seconds(10)) {
                daemon.log.contains("Idle: gave back the code pages not in use")
            }
            let before = try Self.contextSwitches(daemon.child.pid)
            try await Task.sleep(for: .seconds(6))
            let after = try Self.contextSwitches(daemon.child.pid)
            // Before issue 36: about 10 in 6 s (libdispatch's once-a-second monitor, the 5 s
            // idle check). At most one stray switch of a thread ending its last work is allowed.
            #expect(after - before <= 1, "context switches of the daemon's threads in 6 s idle: \(after - before)")
        }
    }

    /// Voluntary + nonvoluntary context switches of every thread of `pid` so far.
    static func contextSwitches(_ pid: Int32) throws -> Int {
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
        var total = 0
        for task in tasks {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)
            else { continue }
            for line in status.split(separator: "\n")
            where line.hasPrefix("voluntary_ctxt_switches:") || line.hasPrefix("nonvoluntary_ctxt_switches:") {
                total +=
                    Int(line.split(separator: "\t").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "") ?? 0
            }
        }
        return total
    }
}
