#if canImport(Glibc)
import Glibc
#endif

/// The mount and pid namespaces of the system the daemon serves, and how a peer's relate to
/// them: those of PID 1 as the daemon sees it (the service manager: a unit's sandboxing, such
/// as `PrivateMounts=` or `ProtectSystem=`, gives the daemon a mount namespace of its own, in
/// which no client is), or the daemon's own when PID 1's cannot be read.
///
/// The namespace files (`/proc/PID/ns/mnt`, `ns/pid`) name a namespace exactly, but reading
/// another user's needs the right to trace it (the system instance runs as its own user). Where
/// they cannot be read, files anyone may read stand in: the id of the mount at `/` in
/// `mountinfo` (mount ids are unique on the system, and a new mount namespace copies its mounts
/// under new ids), and the number of pids in `status`'s `NSpid` (one more for each pid
/// namespace below the daemon's). What neither tells is ``NamespaceRelation/unknown``.
struct OwnNamespaces: Sendable {
    var mount: FileIdentity?
    var pid: FileIdentity?
    var rootMountID: String?
    var pidDepth: Int?

    init(directory: (any ProcessDirectory)?) {
        mount = directory?.identity("ns/mnt")
        pid = directory?.identity("ns/pid")
        rootMountID = Self.rootMountID(directory?.read("mountinfo"))
        pidDepth = Self.pidDepth(directory?.read("status"))
    }

    /// PID 1's namespaces when they can be told, else the daemon's own.
    static func reference(in source: any ProcessSource) -> OwnNamespaces {
        let manager = OwnNamespaces(directory: source.directory(of: 1))
        if manager.mount != nil || manager.rootMountID != nil, manager.pid != nil || manager.pidDepth != nil {
            return manager
        }
        return OwnNamespaces(directory: source.directory(of: getpid()))
    }

    func mountRelation(of peer: any ProcessDirectory) -> NamespaceRelation {
        if let mount, let theirs = peer.identity("ns/mnt") { return theirs == mount ? .same : .other }
        guard let rootMountID, let theirs = Self.rootMountID(peer.read("mountinfo")) else { return .unknown }
        return theirs == rootMountID ? .same : .other
    }

    func pidRelation(of peer: any ProcessDirectory) -> NamespaceRelation {
        if let pid, let theirs = peer.identity("ns/pid") { return theirs == pid ? .same : .other }
        guard let pidDepth, let theirs = Self.pidDepth(peer.read("status")) else { return .unknown }
        return theirs == pidDepth ? .same : .other
    }

    /// The id of the last mount at `/` (the one on top) in a `mountinfo` text.
    static func rootMountID(_ mountinfo: String?) -> String? {
        guard let mountinfo else { return nil }
        return ProcText.withBytes(mountinfo) { bytes in
            var found: String? = nil
            for line in ProcText.lines(bytes) {
                let fields = ProcText.fields(line, limit: 5)
                if fields.count > 4, ProcText.equals(fields[4], "/") { found = ProcText.string(fields[0]) }
            }
            return found
        }
    }

    /// The number of pids on `status`'s `NSpid` line.
    static func pidDepth(_ status: String?) -> Int? {
        guard let status else { return nil }
        return ProcText.withBytes(status) { bytes in
            guard let line = ProcText.lines(bytes).first(where: { $0.starts(with: "NSpid:".utf8) }) else {
                return nil
            }
            let count = ProcText.fields(line.dropFirst("NSpid:".utf8.count)).count
            return count > 0 ? count : nil
        }
    }
}
