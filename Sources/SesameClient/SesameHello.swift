/// The daemon's answer to `hello`: who it is and what this process may do.
public struct SesameHello: Sendable, Hashable {
    /// `sesamed`.
    public var server: String
    /// The daemon's version.
    public var version: String
    /// The protocol version (1).
    public var protocolVersion: Int
    /// A random id per daemon start; a new one means `sequence` started over at 1.
    public var instance: String
    public var role: SesameRole
    public var peerUid: UInt32
    public var peerGid: UInt32
    public var peerPid: Int32

    public init(
        server: String, version: String, protocolVersion: Int, instance: String, role: SesameRole,
        peerUid: UInt32, peerGid: UInt32, peerPid: Int32
    ) {
        self.server = server
        self.version = version
        self.protocolVersion = protocolVersion
        self.instance = instance
        self.role = role
        self.peerUid = peerUid
        self.peerGid = peerGid
        self.peerPid = peerPid
    }
}
