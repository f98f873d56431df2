import Foundation
import SesameLocalAPI

#if canImport(Glibc)
import Glibc
#endif

/// A raw protocol connection, with plain system calls: to check the order of lines on one
/// connection, or what a client that connects without waiting meets. Its calls block (reads
/// at most the timeout), and one test at a time uses it: call it through ``onOwnThread(_:)``.
final class RawConnection: @unchecked Sendable {
    private let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to the socket at `path`. `nonBlocking`: the connect does not wait for the
    /// daemon to accept, as SwiftNIO's clients connect: with the listen queue full it fails at
    /// once with `EAGAIN`. Reads still wait (``readLine(timeout:)`` polls).
    /// - Throws: ``ConnectFailure`` with the connect's errno.
    init(path: String, nonBlocking: Bool = false) throws {
        let type = Int32(SOCK_STREAM.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
        fd = socket(AF_UNIX, type, 0)
        guard fd >= 0 else { throw HarnessError("socket: \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let failure = ConnectFailure(path: path, errno: errno)
            _ = Glibc.close(fd)
            throw failure
        }
    }

    struct ConnectFailure: Error, CustomStringConvertible {
        var path: String
        var errno: Int32
        var description: String { "connect \(path): \(errno)" }
    }

    func close() { _ = Glibc.close(fd) }

    /// Writes what it can of `bytes` from `offset` without waiting (on a non-blocking
    /// connection); the number of bytes written, 0 when the socket takes nothing now.
    func writeSome(_ bytes: [UInt8], from offset: Int) -> Int {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
        return max(n, 0)
    }

    func send(_ line: String) throws {
        let bytes = Array((line + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw HarnessError("write: \(errno)") }
    }

    /// The next line, waiting at most `timeout` seconds.
    func readLine(timeout: Int32 = 15) throws -> JSONValue {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return try JSONValue.parse(line)
            }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, timeout * 1000) > 0 else { throw HarnessError("no line within \(timeout) s") }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = read(fd, &chunk, chunk.count)
            guard n > 0 else { throw HarnessError("connection closed") }
            buffer += chunk[..<n]
        }
    }

    /// Every line up to and including the response with `id`.
    func readUntilResponse(id: Int64) throws -> [JSONValue] {
        var lines: [JSONValue] = []
        while true {
            let line = try readLine()
            lines.append(line)
            if line["id"]?.int64Value == id { return lines }
        }
    }
}
