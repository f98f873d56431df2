import CSystemd

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells the service manager about readiness, status, shutdown and liveness (sd_notify(3)).
///
/// Built from an environment dictionary, never from the process's global environment, so
/// tests can point it at their own socket. It speaks sd_notify's datagram protocol itself:
/// libsystemd's `sd_notify` reads `NOTIFY_SOCKET` from the process environment and so cannot
/// be injected. With no `NOTIFY_SOCKET` (not under systemd, or `Type=simple`) every call is a
/// silent no-op.
///
/// A value type with no mutable state; safe to share between tasks.
public struct SystemdNotifier: Sendable {
    /// The datagram socket from `NOTIFY_SOCKET` (a path, or `@name` for the abstract
    /// namespace); nil when notifications are off.
    public let socketPath: String?
    /// How often to send ``SystemdNotification/watchdog``: half of `WATCHDOG_USEC`, as
    /// sd_watchdog_enabled(3) advises; nil when the watchdog is off or meant for another
    /// process (`WATCHDOG_PID` names a different pid).
    public let watchdogInterval: Duration?

    /// Reads `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID` from `environment`.
    /// - Parameters:
    ///   - environment: the process environment, or a test's own.
    ///   - processID: the pid `WATCHDOG_PID` must match; defaults to this process.
    public init(environment: [String: String], processID: pid_t = getpid()) {
        if let path = environment["NOTIFY_SOCKET"], path.hasPrefix("/") || path.hasPrefix("@") {
            socketPath = path
        } else {
            socketPath = nil
        }
        watchdogInterval = Self.watchdogInterval(environment: environment, processID: processID)
    }

    /// Whether notifications go anywhere.
    public var isEnabled: Bool { socketPath != nil }

    /// Sends `notifications` in one datagram (one `KEY=value` per line).
    /// - Throws: ``SystemdNotifierError`` when the socket cannot be reached; callers usually
    ///   log this once and carry on, since the service works without the manager's view of it.
    public func notify(_ notifications: SystemdNotification...) throws(SystemdNotifierError) {
        try notify(notifications)
    }

    /// Sends `notifications` in one datagram (one `KEY=value` per line).
    /// - Throws: ``SystemdNotifierError`` when the socket cannot be reached.
    public func notify(_ notifications: [SystemdNotification]) throws(SystemdNotifierError) {
        guard let socketPath, !notifications.isEmpty else { return }
        let message = notifications.map(\.assignment).joined(separator: "\n")
        try Self.send(Array(message.utf8), to: socketPath)
    }

    /// The watchdog ping interval sd_watchdog_enabled(3) would give for `environment`.
    static func watchdogInterval(environment: [String: String], processID: pid_t) -> Duration? {
        guard let text = environment["WATCHDOG_USEC"], let microseconds = UInt64(text), microseconds > 0 else {
            return nil
        }
        if let owner = environment["WATCHDOG_PID"], !owner.isEmpty {
            guard let pid = pid_t(owner), pid == processID else { return nil }
        }
        return .microseconds(Int64(clamping: microseconds / 2))
    }

    private static func send(_ bytes: [UInt8], to socketPath: String) throws(SystemdNotifierError) {
        guard let (madeAddress, length) = UnixSocketAddress.make(socketPath) else {
            throw SystemdNotifierError(socketPath: socketPath, operation: "address", code: ENAMETOOLONG)
        }
        var address = madeAddress
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemdNotifierError(socketPath: socketPath, operation: "socket", code: errno) }
        defer { close(fd) }
        while true {
            let sent = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                    bytes.withUnsafeBytes {
                        // Never blocks: a manager that does not read (its queue is full) must not
                        // stall the daemon's threads; the message is dropped and reported instead.
                        sendto(
                            fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT), socketAddress,
                            length)
                    }
                }
            }
            if sent >= 0 { return }
            if errno == EINTR { continue }
            throw SystemdNotifierError(socketPath: socketPath, operation: "sendto", code: errno)
        }
    }
}
