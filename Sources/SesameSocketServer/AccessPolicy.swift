import SesameLocalAPI

#if canImport(Glibc)
import Glibc
#endif

/// Which role each peer gets, from `[access]`: the daemon's own uid and root are managers;
/// entries `user:NAME`, `group:NAME`, `uid:N`, `gid:N` grant roles; anyone else has none.
public struct AccessPolicy: Sendable, Hashable {
    /// One `[access]` entry.
    public enum Principal: Sendable, Hashable {
        case user(String)
        case group(String)
        case uid(UInt32)
        case gid(UInt32)

        /// Parses `user:NAME`, `group:NAME`, `uid:N` or `gid:N`; nil when malformed.
        public init?(_ entry: String) {
            guard let colon = entry.firstIndex(of: ":") else { return nil }
            let kind = entry[..<colon]
            let value = String(entry[entry.index(after: colon)...])
            guard !value.isEmpty else { return nil }
            switch kind {
            case "user": self = .user(value)
            case "group": self = .group(value)
            case "uid":
                guard let n = UInt32(value) else { return nil }
                self = .uid(n)
            case "gid":
                guard let n = UInt32(value) else { return nil }
                self = .gid(n)
            default: return nil
            }
        }
    }

    public var daemonUid: UInt32
    public var managers: [Principal]
    public var readers: [Principal]
    public var observers: [Principal]

    public init(daemonUid: UInt32, managers: [Principal] = [], readers: [Principal] = [], observers: [Principal] = []) {
        self.daemonUid = daemonUid
        self.managers = managers
        self.readers = readers
        self.observers = observers
    }

    /// The role of a peer. `directory` answers user and group questions (the system's
    /// databases in production, a table in tests).
    public func role(
        for peer: PeerCredentials, directory: any AccountDirectory = SystemAccountDirectory()
    ) -> LocalAPIRole {
        if peer.uid == 0 || peer.uid == daemonUid { return .manager }
        var identity: PeerIdentity? = nil
        func matches(_ principals: [Principal]) -> Bool {
            for principal in principals {
                switch principal {
                case .uid(let uid): if uid == peer.uid { return true }
                case .gid(let gid):
                    if identity == nil { identity = directory.identity(of: peer) }
                    if identity!.groupIDs.contains(gid) { return true }
                case .user(let name):
                    if identity == nil { identity = directory.identity(of: peer) }
                    if identity!.userName == name { return true }
                case .group(let name):
                    if identity == nil { identity = directory.identity(of: peer) }
                    if identity!.groupNames.contains(name) { return true }
                }
            }
            return false
        }
        if matches(managers) { return .manager }
        if matches(readers) { return .reader }
        if matches(observers) { return .observer }
        return .none
    }
}

/// A peer's user name and every group it is in (primary and supplementary).
public struct PeerIdentity: Sendable, Hashable {
    public var userName: String?
    public var groupIDs: Set<UInt32>
    public var groupNames: Set<String>

    public init(userName: String?, groupIDs: Set<UInt32>, groupNames: Set<String>) {
        self.userName = userName
        self.groupIDs = groupIDs
        self.groupNames = groupNames
    }
}

/// Answers who a uid is and which groups it belongs to.
public protocol AccountDirectory: Sendable {
    func identity(of peer: PeerCredentials) -> PeerIdentity
}

/// The system's user and group databases (`getpwuid_r`, `getgrouplist`, `getgrgid_r`). A
/// peer's groups are the ones its process had when it connected (``PeerCredentials/groups``);
/// only when the kernel could not tell them are they the user database's list for its uid.
public struct SystemAccountDirectory: AccountDirectory {
    public init() {}

    public func identity(of peer: PeerCredentials) -> PeerIdentity {
        var groupIDs: Set<UInt32> = [peer.gid]
        if let groups = peer.groups { groupIDs.formUnion(groups) }
        var userName: String? = nil
        var pwd = passwd()
        var result: UnsafeMutablePointer<passwd>? = nil
        var buffer = [CChar](repeating: 0, count: 16_384)
        if getpwuid_r(peer.uid, &pwd, &buffer, buffer.count, &result) == 0, result != nil, let name = pwd.pw_name {
            userName = String(cString: name)
        }
        if peer.groups == nil, let name = pwd.pw_name, result != nil {
            var count: Int32 = 256
            var groups = [gid_t](repeating: 0, count: Int(count))
            if getgrouplist(name, pwd.pw_gid, &groups, &count) >= 0 {
                groupIDs.formUnion(groups.prefix(Int(count)).map { UInt32($0) })
            }
            groupIDs.insert(pwd.pw_gid)
        }
        var groupNames: Set<String> = []
        for gid in groupIDs {
            var grp = group()
            var found: UnsafeMutablePointer<group>? = nil
            var groupBuffer = [CChar](repeating: 0, count: 16_384)
            if getgrgid_r(gid, &grp, &groupBuffer, groupBuffer.count, &found) == 0, found != nil, let name = grp.gr_name
            {
                groupNames.insert(String(cString: name))
            }
        }
        return PeerIdentity(userName: userName, groupIDs: groupIDs, groupNames: groupNames)
    }
}
