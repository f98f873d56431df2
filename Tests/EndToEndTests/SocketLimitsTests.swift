import Foundation
import SesameLocalAPI
import SesameTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The local API's bounds against hostile local peers, on the real daemon (issue #25).
@Suite("sesamed bounds what local peers can take", .serialized, .timeLimit(.minutes(3)))
struct SocketLimitsTests {
    @Test(
        "200 connections pipelining hello and getState that never read: the daemon's memory stays bounded and a new client is answered at once"
    )
    func nonReadingPeers() async throws {
        try await withEmulatorAndDaemon { _, daemon in
            let pid = daemon.child.pid
            let before = try Self.residentKiB(pid)
            var line: [UInt8] = []
            for id in 0..<2000 {
                let method = id % 2 == 0 ? "hello" : "getState"
                line += Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)"}"#.utf8) + [10]
            }
            var sockets: [RawConnection] = []
            defer { for socket in sockets { socket.close() } }
            for _ in 0..<200 { sockets.append(try RawConnection(path: daemon.socketPath, nonBlocking: true)) }
            // Write until no socket takes anything for 20 passes in a row: the daemon reads no more.
            var still = 0
            var offsets = [Int](repeating: 0, count: sockets.count)
            while still < 20 {
                var progressed = false
                for (i, socket) in sockets.enumerated() {
                    let n = socket.writeSome(line, from: offsets[i])
                    if n > 0 {
                        progressed = true
                        offsets[i] = (offsets[i] + n) % line.count
                    }
                }
                still = progressed ? 0 : still + 1
                try await Task.sleep(for: .milliseconds(20))
            }
            // Then the daemon answers what it had read until the sockets to the peers are
            // full, and is idle: its CPU time stops growing and none of its threads is waiting
            // for a core. (CPU time alone also stands still while a loaded machine starves it.)
            var cpu = try Self.cpuTicks(pid)
            var quiet = 0
            while quiet < 3 {
                try await Task.sleep(for: .milliseconds(200))
                let now = try Self.cpuTicks(pid)
                let runnable = try Self.runnableThreads(pid)
                quiet = now == cpu && runnable == 0 ? quiet + 1 : 0
                cpu = now
            }
            let after = try Self.residentKiB(pid)
            // Before the bound: about 1.5 MiB per connection (1,000 of them: 1.99 GB).
            #expect(after - before < 200 * 384, "resident \(before) KiB before, \(after) KiB with 200 peers")
            let start = ContinuousClock.now
            let answer = try await onOwnThread {
                try rawCall(daemon.socketPath, #"{"jsonrpc":"2.0","id":1,"method":"hello"}"#)
            }
            #expect(answer["result"] != nil)
            // Answered while the 200 peers' backlog stays parked: a liveness bound, generous enough
            // for a loaded 2-core CI machine (the measured time is printed below).
            #expect(ContinuousClock.now - start < .seconds(10))
            print(
                "200 non-reading peers: resident \(before) KiB before, \(after) KiB after, hello in \(ContinuousClock.now - start)"
            )
        }
    }

    @Test("socket.group gives the socket file that group")
    func socketGroup() async throws {
        // Root may give it any group; anyone else one of their own.
        let group = getuid() == 0 ? 4242 : getgid()
        try await withEmulatorAndDaemon(settings: ["socket": ["group": "\"\(group)\""]]) { _, daemon in
            // FileManager rather than lstat: in this target `struct stat` may resolve to the
            // copy Dispatch's C module owns, which a fresh build then refuses to use.
            let attributes = try FileManager.default.attributesOfItem(atPath: daemon.socketPath)
            #expect((attributes[.groupOwnerAccountID] as? NSNumber)?.uint32Value == group)
        }
    }

    @Test(
        "bad socket.max_connections_per_uid, socket.idle_timeout and socket.group stop sesamed with 78 naming the key")
    func invalidValues() async throws {
        try await expectRefused(
            section: "socket", key: "max_connections_per_uid", values: ["0", "2000", "\"4\"", "-1"])
        try await expectRefused(section: "socket", key: "idle_timeout", values: ["-1", "0.5", "86401", "\"300\""])
        try await expectRefused(section: "socket", key: "group", values: ["\"no-such-group-sesame\""])
    }

    /// User and system CPU time of `pid`, in clock ticks.
    static func cpuTicks(_ pid: Int32) throws -> Int {
        let fields =
            try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8).split(separator: ")").last?
            .split(separator: " ") ?? []
        // After "pid (comm)": state is field 3, utime 14 and stime 15.
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else {
            throw HarnessError("no CPU times for \(pid)")
        }
        return user + system
    }

    /// How many of `pid`'s threads are running or waiting for a core (state R).
    static func runnableThreads(_ pid: Int32) throws -> Int {
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
        return tasks.filter { task in
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/stat", encoding: .utf8)) ?? ""
            // After "tid (comm)" the state is the first field.
            return stat.split(separator: ")").last?.split(separator: " ").first == "R"
        }.count
    }

    static func residentKiB(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
        }
        throw HarnessError("no VmRSS for \(pid)")
    }
}
