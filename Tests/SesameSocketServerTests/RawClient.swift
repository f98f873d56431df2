import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A Unix-socket client on a plain descriptor, for what a NIO client would not do: write
/// without reading, until the daemon stops reading.
final class RawClient {
    let fd: Int32

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawClientError.failed("socket", errno) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in bytes.enumerated() where i < raw.count - 1 { raw[i] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw RawClientError.failed("connect", errno)
        }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    func setBlocking(_ blocking: Bool) {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, blocking ? flags & ~O_NONBLOCK : flags | O_NONBLOCK)
    }

    /// Writes what the socket takes now (non-blocking) or all of it (blocking); returns the count.
    func write(_ bytes: ArraySlice<UInt8>) throws -> Int {
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK { return written }
                if errno == EINTR { continue }
                throw RawClientError.failed("write", errno)
            }
            written += n
        }
        return written
    }

    /// Reads whatever comes next (blocking, at most 30 s); empty at the end.
    func read() throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
        guard n >= 0 else { throw RawClientError.failed("read", errno) }
        return Array(buffer[..<n])
    }
}

enum RawClientError: Error {
    case failed(String, Int32)
}
