import Foundation
import SesameLocalAPI
import SesameTesting
import Testing

/// `memory.release_when_idle`: the real daemon gives its code pages back once idle, goes on
/// answering afterwards, and does not while it is busy.
@Suite("sesamed gives memory back when idle", .serialized, .timeLimit(.minutes(2)))
struct IdleMemoryTests {
    @Test("idle for the configured time: the code pages are released; the next request is answered as before")
    func releasesWhenIdle() async throws {
        try await withEmulatorAndDaemon(settings: ["memory": ["release_when_idle": "0.5"]]) { _, daemon in
            let pid = daemon.child.pid
            let socket = daemon.socketPath
            let before = try await onOwnThread { try rawCall(socket, #"{"jsonrpc":"2.0","id":1,"method":"getState"}"#) }
            let busy = try Self.residentCodeKiB(pid)
            var lowest = busy
            try await eventually("the daemon said it gave its code pages back", timeout: .seconds(10)) {
                lowest = min(lowest, try Self.residentCodeKiB(pid))
                return daemon.log.contains("Idle: gave back the code pages not in use")
            }
            for _ in 0..<20 where lowest >= busy / 2 {
                try await Task.sleep(for: .milliseconds(50))
                lowest = min(lowest, try Self.residentCodeKiB(pid))
            }
            // Not to zero: the daemon's timers run now and then, and each page they run maps
            // the 64 KiB around it back (more so under a sanitizer, whose code is larger).
            #expect(lowest < busy / 2, "code resident: \(busy) KiB serving, at least \(lowest) KiB idle")
            let after = try await onOwnThread { try rawCall(socket, #"{"jsonrpc":"2.0","id":1,"method":"getState"}"#) }
            #expect(after == before)
            let token = try await onOwnThread {
                try rawCall(socket, #"{"jsonrpc":"2.0","id":2,"method":"getIdToken"}"#)
            }
            #expect(token["result"]?["token"]?.stringValue != nil)
        }
    }

    @Test("armed by activity: released once while idle, not again until a request comes, then once more after it")
    func rearmedByActivity() async throws {
        try await withEmulatorAndDaemon(settings: ["memory": ["release_when_idle": "0.3"]]) { _, daemon in
            let socket = daemon.socketPath
            let releases = { daemon.log.components(separatedBy: "Idle: gave back the code pages").count - 1 }
            try await eventually("the first release", timeout: .seconds(10)) { releases() == 1 }
            // Idle on: it waits for activity with no timer, so no second release however long.
            try await Task.sleep(for: .seconds(1.5))
            #expect(releases() == 1)
            _ = try await onOwnThread { try rawCall(socket, #"{"jsonrpc":"2.0","id":1,"method":"getState"}"#) }
            try await eventually("released again after the request", timeout: .seconds(10)) { releases() == 2 }
        }
    }

    @Test("0 turns it off: nothing is released however long the daemon idles")
    func off() async throws {
        try await withEmulatorAndDaemon(settings: ["memory": ["release_when_idle": "0"]]) { _, daemon in
            let pid = daemon.child.pid
            let resident = try Self.residentCodeKiB(pid)
            try await Task.sleep(for: .seconds(2))
            #expect(try Self.residentCodeKiB(pid) >= resident)
            #expect(!daemon.log.contains("Idle: gave back"))
        }
    }

    @Test(
        "a release_when_idle that is not 0 or a number of seconds from 0.1 to 86400 stops sesamed with 78 naming the key"
    )
    func invalidValues() async throws {
        try await expectRefused(
            section: "memory", key: "release_when_idle", values: ["-1", "0.01", "86401", "\"5\"", "true"])
    }

    /// Resident KiB of the daemon's executable code mapping (`r-xp`, its own binary).
    static func residentCodeKiB(_ pid: Int32) throws -> Int {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
        // Read to the end: /proc files have no size, and a sanitizer's mappings make this one long.
        let smaps = String(
            decoding: try FileHandle(forReadingAtPath: "/proc/\(pid)/smaps")?.readToEnd() ?? Data(), as: UTF8.self)
        var total = 0
        var inCode = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), fields.count >= 6 {
                inCode = fields[1] == "r-xp" && fields[5...].joined(separator: " ") == executable
            } else if inCode, fields.first == "Rss:", fields.count >= 2, let kib = Int(fields[1]) {
                total += kib
            }
        }
        return total
    }
}
