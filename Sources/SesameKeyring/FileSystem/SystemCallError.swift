#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call: which operation, on which path, and the `errno` it left.
///
/// The store turns it into a ``SessionStoreError`` with a message for people before it leaves
/// the store; ``DurableFile``'s other users (the metrics file) log its description.
public struct SystemCallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call that failed, e.g. `"open"` or `"fsync"`.
    public var operation: String
    /// The path the call worked on.
    public var path: String
    /// The `errno` value after the call.
    public var code: Int32

    public var description: String { "\(operation) \(path): \(String(cString: strerror(code))) (errno \(code))" }

    /// Runs a system call that returns -1 on failure, retrying on `EINTR`.
    /// - Returns: the call's non-negative result.
    /// - Throws: ``SystemCallError`` carrying the `errno` of the failure.
    @discardableResult
    static func check(_ operation: String, _ path: String, _ call: () -> Int32) throws(SystemCallError) -> Int32 {
        while true {
            let result = call()
            if result >= 0 { return result }
            let code = errno
            if code == EINTR { continue }
            throw SystemCallError(operation: operation, path: path, code: code)
        }
    }
}
