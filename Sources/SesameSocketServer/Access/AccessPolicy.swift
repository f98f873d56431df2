import SesameLocalAPI

/// Which role each peer gets, from `[access]`. Root and the daemon's own uid are managers in
/// the daemon's own mount and pid namespaces (anywhere with ``rootInContainers``); entries grant
/// roles by who the peer is (`user:NAME`, `group:NAME`, `uid:N`, `gid:N`) and what it is
/// (`unit:NAME`, `exe:PATH`, `flatpak:APP_ID`, `container`), alone or several joined by spaces,
/// all of which must match; anyone else has none.
public struct AccessPolicy: Sendable, Hashable {
    public var daemonUid: UInt32
    public var managers: [Principal]
    public var readers: [Principal]
    public var observers: [Principal]
    /// Root and the daemon's uid are managers in other namespaces too (the rule before
    /// namespaces were looked at).
    public var rootInContainers: Bool

    public init(
        daemonUid: UInt32, managers: [Principal] = [], readers: [Principal] = [], observers: [Principal] = [],
        rootInContainers: Bool = false
    ) {
        self.daemonUid = daemonUid
        self.managers = managers
        self.readers = readers
        self.observers = observers
        self.rootInContainers = rootInContainers
    }

    /// The role of a peer. `directory` answers user and group questions (the system's
    /// databases in production, a table in tests).
    public func role(
        for peer: PeerCredentials, directory: any AccountDirectory = SystemAccountDirectory()
    ) -> LocalAPIRole {
        if peer.uid == 0 || peer.uid == daemonUid, rootInContainers || peer.process.inDaemonNamespaces {
            return .manager
        }
        var identity: PeerIdentity? = nil
        func matches(_ principal: Principal) -> Bool {
            switch principal {
            case .uid(let uid): return uid == peer.uid
            case .gid(let gid):
                if identity == nil { identity = directory.identity(of: peer) }
                return identity!.groupIDs.contains(gid)
            case .user(let name):
                if identity == nil { identity = directory.identity(of: peer) }
                return identity!.userName == name
            case .group(let name):
                if identity == nil { identity = directory.identity(of: peer) }
                return identity!.groupNames.contains(name)
            case .unit(let name):
                return peer.process.unit == name
                    || (peer.process.userUnit == name && peer.process.userUnitOwner == daemonUid && daemonUid != 0)
            case .exe(let path):
                guard peer.process.executable == path, let file = peer.process.executableFile else { return false }
                return FileIdentity.of(path: path) == file
            case .flatpak(let appId): return peer.process.flatpakAppId == appId
            case .container: return peer.process.inOtherNamespace
            case .all(let parts): return parts.allSatisfy(matches)
            }
        }
        if managers.contains(where: matches) { return .manager }
        if readers.contains(where: matches) { return .reader }
        if observers.contains(where: matches) { return .observer }
        return .none
    }
}
