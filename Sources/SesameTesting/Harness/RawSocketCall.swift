import Foundation
import SesameLocalAPI

/// One request line to a daemon's socket and the answer line, with plain system calls: for
/// the wire fields the client library does not surface. Blocking (at most 60 s for the
/// answer); run it off the test's actors.
public func rawCall(_ socketPath: String, _ line: String) throws -> JSONValue {
    let connection = try RawConnection(path: socketPath)
    defer { connection.close() }
    try connection.send(line)
    return try connection.readLine(timeout: 60)
}

/// Runs blocking system calls (``rawCall(_:_:)``, ``RawConnection``) on a thread of their
/// own. Swift's cooperative pool has one thread per core, two on CI, and every test of the
/// run shares it: a test blocked in `read` there would stall all the others' timers and
/// streams.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
