/// Why a notification could not be delivered to the service manager.
public struct SystemdNotifierError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The socket from `NOTIFY_SOCKET`.
    public var socketPath: String
    /// The failed step, e.g. `"sendto"`.
    public var operation: String
    /// The `errno` of the failure, or 0 when the address itself is unusable.
    public var code: Int32

    public init(socketPath: String, operation: String, code: Int32) {
        self.socketPath = socketPath
        self.operation = operation
        self.code = code
    }

    public var description: String {
        "Cannot notify the service manager at \(socketPath): \(operation) failed (errno \(code))"
    }
}
