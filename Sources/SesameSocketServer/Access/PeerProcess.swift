/// What the daemon read about a peer's process when it connected (docs/configuration.md,
/// "Access"): its executable, systemd unit, Flatpak app id and namespaces. Each field was read
/// by the daemon from `/proc`, never taken from the peer's words; a field it could not read is
/// nil (or ``NamespaceRelation/unknown``), and an entry that needs it does not match.
public struct PeerProcess: Sendable, Hashable {
    /// The executable's path as the kernel names it (`/proc/PID/exe`).
    public var executable: String?
    /// The identity of the file the process runs, read through `/proc/PID/exe`.
    public var executableFile: FileIdentity?
    /// The unit of the system instance whose cgroup holds the process (`sd_pid_get_unit`).
    public var unit: String?
    /// The unit of a user manager (`user@UID.service`) that holds the process
    /// (`sd_pid_get_user_unit`), and the uid of that manager.
    public var userUnit: String?
    public var userUnitOwner: UInt32?
    /// The Flatpak app id, from `/.flatpak-info` in the peer's root, read only when the peer is
    /// in another mount namespace than the daemon (in the daemon's own, the file is anyone's).
    public var flatpakAppId: String?
    public var mountNamespace: NamespaceRelation
    public var pidNamespace: NamespaceRelation

    public init(
        executable: String? = nil, executableFile: FileIdentity? = nil, unit: String? = nil, userUnit: String? = nil,
        userUnitOwner: UInt32? = nil, flatpakAppId: String? = nil, mountNamespace: NamespaceRelation = .unknown,
        pidNamespace: NamespaceRelation = .unknown
    ) {
        self.executable = executable
        self.executableFile = executableFile
        self.unit = unit
        self.userUnit = userUnit
        self.userUnitOwner = userUnitOwner
        self.flatpakAppId = flatpakAppId
        self.mountNamespace = mountNamespace
        self.pidNamespace = pidNamespace
    }

    /// Nothing known: what a peer whose process could not be read (or changed while it was
    /// read) is.
    public static let unknown = PeerProcess()

    /// A process in the daemon's own namespaces, nothing else known (tests of connections
    /// that have no process to read).
    public static let daemonNamespaces = PeerProcess(mountNamespace: .same, pidNamespace: .same)

    /// Both namespaces known to be the daemon's own.
    public var inDaemonNamespaces: Bool { mountNamespace == .same && pidNamespace == .same }

    /// A namespace known to differ from the daemon's (the `container` entry).
    public var inOtherNamespace: Bool { mountNamespace == .other || pidNamespace == .other }
}

/// How one of a peer's namespaces relates to the daemon's.
public enum NamespaceRelation: String, Sendable, Hashable {
    case same
    case other
    /// It could not be read (another user's process without the right to look into it).
    case unknown
}

/// A file's identity: the device and inode it lives on.
public struct FileIdentity: Sendable, Hashable, Codable {
    public var device: UInt64
    public var inode: UInt64

    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
}
