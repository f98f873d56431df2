#if canImport(Glibc)
import Glibc
#endif

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
