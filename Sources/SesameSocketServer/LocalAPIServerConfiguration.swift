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
    /// Connections one uid may hold (root and the daemon's uid are exempt and have a reserve
    /// of their own, see ``ConnectionSlots``); nil: a quarter of ``maximumConnections``.
    public var maximumConnectionsPerUid: Int?
    /// Seconds after which a connection with nothing in flight, no subscription and no
    /// request is closed; 0: never.
    public var idleTimeout: Double
    /// The group the socket file is given after `bind()` (a bound path only); nil: the
    /// daemon's own.
    public var socketGroup: UInt32?
    public var access: AccessPolicy
    /// The daemon's version, as `hello` reports it.
    public var version: String
    /// Subscribers flushed by one event loop task when a notification fans out (the loop
    /// writes to a full chunk while the next is being queued).
    public var fanOutChunk: Int
    /// Told the number of open connections after each connection opens or closes (the
    /// daemon's metrics); called on the connection's event loop, so it must return at once.
    public var connectionsChanged: (@Sendable (Int) -> Void)?
    /// Where the grants remembered `always` are kept (`<state dir>/access-grants.json`); nil:
    /// nowhere, so they last until the daemon stops.
    public var accessGrantsPath: String?
    /// How long access requests wait, and how many may (``AccessRequests``).
    var accessRequestLimits = AccessRequests.Limits()
    /// Seconds between two forced refreshes of one reader uid (``ForcedRefreshLimiter``).
    var forcedRefreshInterval: Double = 10
    /// The uids outside the per-uid share; nil: root and the daemon's uid.
    var exemptUids: Set<UInt32>?
    /// Where peers' processes are read (`/proc`; tests put a table here).
    var processSource: any ProcessSource = SystemProcessSource()
    /// Tests only: the role of a peer instead of ``access``'s.
    var roleOfPeer: (@Sendable (PeerCredentials) -> LocalAPIRole)?
    /// Tests only: runs between `bind()` and setting the socket file's mode.
    var afterBind: (@Sendable (String) -> Void)?

    public init(
        endpoint: Endpoint, maximumConnections: Int = 1024, maximumConnectionsPerUid: Int? = nil,
        idleTimeout: Double = 300, socketGroup: UInt32? = nil, access: AccessPolicy, version: String,
        fanOutChunk: Int = 1024
    ) {
        self.endpoint = endpoint
        self.maximumConnections = maximumConnections
        self.maximumConnectionsPerUid = maximumConnectionsPerUid
        self.idleTimeout = idleTimeout
        self.socketGroup = socketGroup
        self.access = access
        self.version = version
        self.fanOutChunk = max(1, fanOutChunk)
    }

    /// The slots, with the default share and exemptions filled in.
    var slots: ConnectionSlots {
        ConnectionSlots(
            maximum: maximumConnections, perUid: maximumConnectionsPerUid ?? max(1, maximumConnections / 4),
            exempt: exemptUids ?? [0, access.daemonUid])
    }
}

/// Why the local API could not start.
public struct LocalAPIServerError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
