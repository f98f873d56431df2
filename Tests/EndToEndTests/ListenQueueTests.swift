import Foundation
import SesameTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The daemon's queue of connections not yet accepted (issue 31, 6d): bounded, so a client
/// behind a flood of connects is told at once, instead of waiting for the daemon to take every
/// connection queued before it.
@Suite("sesamed's listen queue under a flood", .serialized, .timeLimit(.minutes(3)))
struct ListenQueueTests {
    @Test(
        "a connect beyond 1,024 waiting ones is refused at once (EAGAIN), and sesamectl says the queue is full; then served"
    )
    func floodedQueue() async throws {
        try await withEmulatorAndDaemon { _, daemon in
            // Stopped, sesamed accepts nothing: every connect waits in the queue, or is refused.
            daemon.child.signal(SIGSTOP)
            var resumed = false
            defer { if !resumed { daemon.child.signal(SIGCONT) } }
            try await eventually("sesamed is stopped") { try Self.state(of: daemon.child.pid) == "T" }
            var flood: [RawConnection] = []
            defer { for connection in flood { connection.close() } }
            // Connect until the queue is full (the first EAGAIN); 4,096 deep, it held 4,096.
            var full = false
            while !full && flood.count < 3000 {
                do {
                    flood.append(try RawConnection(path: daemon.socketPath, nonBlocking: true))
                } catch let failure as RawConnection.ConnectFailure where failure.errno == EAGAIN {
                    full = true
                }
            }
            #expect(full && flood.count <= 1025, "the queue took \(flood.count) connects")
            // A new client, behind the queue, gets its answer now: the queue is full.
            let late = try await daemon.ctl(["status"])
            #expect(late.status == 69, "\(late)")
            #expect(late.stderr.contains("is not taking connections now: the queue of connections"), "\(late)")
            daemon.child.signal(SIGCONT)
            resumed = true
            for connection in flood { connection.close() }
            flood.removeAll()
            try await eventually("sesamed serves again") { try await daemon.ctl(["status"]).status == 0 }
        }
    }

    /// The state letter of /proc/PID/stat (`T`: stopped).
    static func state(of pid: Int32) throws -> String {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        guard let fields = stat.split(separator: ")").last?.split(separator: " "), let state = fields.first else {
            throw HarnessError("no state for \(pid)")
        }
        return String(state)
    }
}
