/// The daemon's answer to `hello`: who it is and what this process may do. The wire object,
/// and SesameClient's public value.
public struct SesameHello: Sendable, Hashable {
    /// `sesamed`.
    public var server: String
    /// The daemon's version.
    public var version: String
    /// The protocol version (1).
    public var `protocol`: Int
    /// A random id per daemon start; a new one means `sequence` started over at 1.
    public var instance: String
    public var role: SesameRole
    public var peerUid: UInt32
    public var peerGid: UInt32
    public var peerPid: Int32
    /// Which backend the daemon talks to (`firebase`, `supabase`); nil from older daemons.
    public var backend: String?

    public init(
        server: String = "sesamed", version: String, protocol: Int = ProtocolLimits.version, instance: String,
        role: SesameRole, peerUid: UInt32, peerGid: UInt32, peerPid: Int32, backend: String? = nil
    ) {
        self.server = server
        self.version = version
        self.protocol = `protocol`
        self.instance = instance
        self.role = role
        self.peerUid = peerUid
        self.peerGid = peerGid
        self.peerPid = peerPid
        self.backend = backend
    }

    /// SesameClient's spelling, with `protocolVersion`.
    public init(
        server: String, version: String, protocolVersion: Int, instance: String, role: SesameRole,
        peerUid: UInt32, peerGid: UInt32, peerPid: Int32, backend: String? = nil
    ) {
        self.init(
            server: server, version: version, protocol: protocolVersion, instance: instance, role: role,
            peerUid: peerUid, peerGid: peerGid, peerPid: peerPid, backend: backend)
    }

    /// The protocol version (1): ``protocol``.
    public var protocolVersion: Int {
        get { `protocol` }
        set { `protocol` = newValue }
    }

    /// The `hello` result.
    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "server": .string(server), "version": .string(version), "protocol": .integer(Int64(`protocol`)),
            "instance": .string(instance), "role": .string(role.rawValue),
            "peer": .object([
                "uid": .integer(Int64(peerUid)), "gid": .integer(Int64(peerGid)), "pid": .integer(Int64(peerPid)),
            ]),
        ]
        if let backend { object["backend"] = .string(backend) }
        return .object(object)
    }

    /// Reads a `hello` result; nil without `server` or `instance`.
    public init?(json: JSONValue) {
        guard let server = json["server"]?.stringValue, let instance = json["instance"]?.stringValue else {
            return nil
        }
        self.server = server
        self.version = json["version"]?.stringValue ?? ""
        self.protocol = Int(json["protocol"]?.int64Value ?? 0)
        self.instance = instance
        self.role = json["role"]?.stringValue.flatMap(SesameRole.init(rawValue:)) ?? .none
        self.peerUid = UInt32(clamping: json["peer"]?["uid"]?.int64Value ?? 0)
        self.peerGid = UInt32(clamping: json["peer"]?["gid"]?.int64Value ?? 0)
        self.peerPid = Int32(clamping: json["peer"]?["pid"]?.int64Value ?? 0)
        self.backend = json["backend"]?.stringValue
    }
}

/// The server side's name for ``SesameHello``.
public typealias WireHello = SesameHello

/// The role the daemon gives a process (PROTOCOL.md, Access); each includes the ones before.
public typealias SesameRole = LocalAPIRole
