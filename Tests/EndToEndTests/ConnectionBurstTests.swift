import Foundation
import SesameLocalAPI
import Testing

#if canImport(Glibc)
import Glibc
#endif

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
        let emulator = try await EmulatorProcess.start()
        defer { Task { await emulator.stop() } }
        let daemon = try await DaemonProcess.start(emulator: emulator)
        defer { Task { await daemon.cleanUp() } }
        let path = daemon.socketPath
        let outcome = try await onOwnThread { try ConnectBurst.run(path: path, count: Self.clients) }
        #expect(outcome.refused == [:], "connects refused, by errno")
        #expect(outcome.answered == Self.clients)
    }
}

/// Opens `count` connections as fast as one thread can, without waiting in between, then asks
/// `hello` on each one.
enum ConnectBurst {
    struct Outcome: Sendable {
        /// errno → how many connects failed with it.
        var refused: [Int32: Int] = [:]
        var answered = 0
    }

    static func run(path: String, count: Int) throws -> Outcome {
        var outcome = Outcome()
        var connected: [Int32] = []
        defer { for fd in connected { close(fd) } }
        for _ in 0..<count {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard fd >= 0 else { throw HarnessError("socket: \(errno)") }
            if connect(fd, path: path) == 0 {
                connected.append(fd)
            } else {
                outcome.refused[errno, default: 0] += 1
                close(fd)
            }
        }
        let hello = Array("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"hello\"}\n".utf8)
        for fd in connected {
            guard write(fd, hello, hello.count) == hello.count else { throw HarnessError("write: \(errno)") }
        }
        for fd in connected where try answer(on: fd)["result"]?["protocol"] != nil {
            outcome.answered += 1
        }
        return outcome
    }

    private static func connect(_ fd: Int32, path: String) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    /// The first line on `fd`, waiting at most 15 s for each read.
    private static func answer(on fd: Int32) throws -> JSONValue {
        var line: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !line.contains(UInt8(ascii: "\n")) {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 15_000) > 0 else { throw HarnessError("no answer within 15 s") }
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else { throw HarnessError("connection closed before the answer") }
            line += buffer[0..<n]
        }
        return try JSONValue.parse(Array(line.prefix { $0 != UInt8(ascii: "\n") }))
    }
}
