import SesameLocalAPI

/// How the local API is served (`[socket]`, `[access]`).
public struct LocalAPIServerConfiguration: Sendable {
    /// Where connections come from.
    public enum Endpoint: Sendable, Hashable, CustomStringConvertible {
        /// Bind a Unix socket at this path and give it this mode.
        case path(String, mode: UInt32)
        /// Adopt a listening socket systemd passed (socket activation).
        case adopted(descriptor: Int32)

        public var description: String {
            switch self {
            case .path(let path, let mode): "\(path) (mode 0\(String(mode, radix: 8)))"
            case .adopted(let descriptor): "fd \(descriptor) from systemd"
            }
        }
    }

    public var endpoint: Endpoint
    /// Connections beyond this are told `too-many-connections` and closed.
    public var maximumConnections: Int
    public var access: AccessPolicy
    /// The daemon's version, as `hello` reports it.
    public var version: String
    /// Subscribers flushed by one event loop task when a notification fans out (the loop
    /// writes to a full chunk while the next is being queued).
    public var fanOutChunk: Int

    public init(
        endpoint: Endpoint, maximumConnections: Int = 1024, access: AccessPolicy, version: String,
        fanOutChunk: Int = 1024
    ) {
        self.endpoint = endpoint
        self.maximumConnections = maximumConnections
        self.access = access
        self.version = version
        self.fanOutChunk = max(1, fanOutChunk)
    }
}

/// Why the local API could not start.
public struct LocalAPIServerError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
