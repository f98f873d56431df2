import Foundation
import SesameLocalAPI

#if canImport(Glibc)
import Glibc
#endif

/// One request line to a daemon's socket and the answer line, with plain system calls: for
/// the wire fields the client library does not surface. Blocking; run it off the test's actors.
func rawCall(_ socketPath: String, _ line: String) throws -> JSONValue {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw HarnessError("socket: \(errno)") }
    defer { close(fd) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (i, byte) in socketPath.utf8.enumerated() where i < raw.count - 1 { raw[i] = byte }
    }
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
    }
    guard connected == 0 else { throw HarnessError("connect \(socketPath): \(errno)") }
    let request = Array((line + "\n").utf8)
    guard write(fd, request, request.count) == request.count else { throw HarnessError("write: \(errno)") }
    var answer: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !answer.contains(UInt8(ascii: "\n")) {
        let n = read(fd, &buffer, buffer.count)
        guard n > 0 else { throw HarnessError("read: \(errno)") }
        answer += buffer[0..<n]
    }
    return try JSONValue.parse(Array(answer.prefix { $0 != UInt8(ascii: "\n") }))
}

/// Runs blocking system calls (``rawCall(_:_:)``, ``RawConnection``) on a thread of their
/// own. Swift's cooperative pool has one thread per core, two on CI, and every test of the
/// run shares it: a test blocked in `read` there would stall all the others' timers and
/// streams.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
