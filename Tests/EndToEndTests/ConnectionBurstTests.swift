import SesameLocalAPI
import SesameTesting
import Testing

/// Many programs connecting in the same instant (a boot, a login): a non-blocking `connect` to
/// a Unix socket whose listen queue is full fails at once with `EAGAIN`, so the queue must hold
/// the burst until the daemon's loop accepts it.
@Suite("sesamed: a burst of connects", .timeLimit(.minutes(2)))
struct ConnectionBurstTests {
    /// Past the 256 the queue once held; few enough descriptors for this test process (see
    /// `FanOutTests`).
    static let clients = 500

    @Test("500 non-blocking connects in one burst are all accepted, and each gets its hello answered")
    func burstIsAccepted() async throws {
        try await withEmulatorAndDaemon { _, daemon in
            let path = daemon.socketPath
            let outcome = try await onOwnThread { try Self.burst(path: path, count: Self.clients) }
            #expect(outcome.refused == [:], "connects refused, by errno")
            #expect(outcome.answered == Self.clients)
        }
    }

    struct Outcome: Sendable {
        /// errno → how many connects failed with it.
        var refused: [Int32: Int] = [:]
        var answered = 0
    }

    /// Opens `count` connections as fast as one thread can, without waiting in between, then
    /// asks `hello` on each one.
    static func burst(path: String, count: Int) throws -> Outcome {
        var outcome = Outcome()
        var connections: [RawConnection] = []
        defer { for connection in connections { connection.close() } }
        for _ in 0..<count {
            do {
                connections.append(try RawConnection(path: path, nonBlocking: true))
            } catch let failure as RawConnection.ConnectFailure {
                outcome.refused[failure.errno, default: 0] += 1
            }
        }
        for connection in connections { try connection.send(#"{"jsonrpc":"2.0","id":1,"method":"hello"}"#) }
        for connection in connections where try connection.readLine()["result"]?["protocol"] != nil {
            outcome.answered += 1
        }
        return outcome
    }
}
