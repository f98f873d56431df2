import SesameLocalAPI

#if canImport(Glibc)
import Glibc
#endif

/// A raw protocol connection to a Unix socket, with plain system calls: to check the order of
/// lines on one connection, to write without reading until the daemon stops reading, or to see
/// what a client that connects without waiting meets. Its calls block (a read at most its
/// timeout), and one test at a time uses it: call it through ``onOwnThread(_:)``.
public final class RawConnection: @unchecked Sendable {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var closed = false

    /// Connects to the socket at `path`. `nonBlocking`: the connect does not wait for the
    /// daemon to accept, as SwiftNIO's clients connect: with the listen queue full it fails at
    /// once with `EAGAIN`. Reads still wait (they poll).
    /// - Throws: ``ConnectFailure`` with the connect's errno.
    public init(path: String, nonBlocking: Bool = false) throws {
        let type = Int32(SOCK_STREAM.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
        fd = socket(AF_UNIX, type, 0)
        guard fd >= 0 else {
            closed = true
            throw HarnessError("socket: \(errno)")
        }
        let connected = withUnixAddress(path) { connect(fd, $0, $1) }
        guard connected == 0 else {
            let failure = ConnectFailure(path: path, errno: errno)
            // Closed here, and only here: deinit runs for an init that throws after every
            // property is set, and a second close could hit a descriptor reused meanwhile.
            close()
            throw failure
        }
    }

    deinit { close() }

    public struct ConnectFailure: Error, CustomStringConvertible {
        public var path: String
        public var errno: Int32
        public var description: String { "connect \(path): \(errno)" }
    }

    public func close() {
        guard !closed else { return }
        closed = true
        _ = Glibc.close(fd)
    }

    /// Makes writes wait for the socket to take everything (true) or take what it can now.
    public func setBlocking(_ blocking: Bool) {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, blocking ? flags & ~O_NONBLOCK : flags | O_NONBLOCK)
    }

    /// Writes what it can of `bytes` from `offset` without waiting (on a non-blocking
    /// connection); the number of bytes written, 0 when the socket takes nothing now.
    public func writeSome(_ bytes: [UInt8], from offset: Int = 0) -> Int {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
        return max(n, 0)
    }

    public func send(_ line: String) throws {
        let bytes = Array((line + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw HarnessError("write: \(errno)") }
    }

    /// The bytes that come next (what one read returns), waiting at most `timeout` seconds;
    /// empty when the peer closed.
    public func readSome(timeout: Int32 = 30) throws -> [UInt8] {
        if !buffer.isEmpty {
            defer { buffer = [] }
            return buffer
        }
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, timeout * 1000) > 0 else { throw HarnessError("nothing read within \(timeout) s") }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = read(fd, &chunk, chunk.count)
        guard n >= 0 else { throw HarnessError("read: \(errno)") }
        return Array(chunk[..<n])
    }

    /// The next line, waiting at most `timeout` seconds.
    public func readLine(timeout: Int32 = 15) throws -> JSONValue {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return try JSONValue.parse(line)
            }
            let chunk = try readSome(timeout: timeout)
            guard !chunk.isEmpty else { throw HarnessError("connection closed") }
            buffer += chunk
        }
    }

    /// Every line up to and including the response with `id`.
    public func readUntilResponse(id: Int64) throws -> [JSONValue] {
        var lines: [JSONValue] = []
        while true {
            let line = try readLine()
            lines.append(line)
            if line["id"]?.int64Value == id { return lines }
        }
    }
}
