#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Who may open a socket node: the group to join when permission is denied.
enum SocketGroup {
    /// The name of the group whose members may connect to the socket at `path` (its group
    /// owner, when the node's mode gives the group write access); nil when the node is gone,
    /// the group has no name, or the group may not connect either.
    static func grantingGroup(of path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IWGRP != 0 else { return nil }
        return name(ofGroup: info.st_gid)
    }

    /// The name of group `gid` from the group database (thread-safe `getgrgid_r`).
    static func name(ofGroup gid: gid_t) -> String? {
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 4096)
        let status = buffer.withUnsafeMutableBufferPointer { bytes in
            getgrgid_r(gid, &entry, bytes.baseAddress!, bytes.count, &result)
        }
        guard status == 0, result != nil, let namePointer = entry.gr_name else { return nil }
        return String(cString: namePointer)
    }
}
