import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension DaemonConfiguration {
    /// `socket.max_connections_per_uid` fits in `socket.max_connections`.
    func validateSocketLimits(origin: String) throws(ConfigurationError) {
        if let perUid = maxConnectionsPerUid, perUid > maxConnections {
            throw ConfigurationError(
                message:
                    "\(origin)'socket.max_connections_per_uid' (\(perUid)) must not exceed 'socket.max_connections' (\(maxConnections))"
            )
        }
    }

    /// Turns `socket.group` (a name or a gid; "": the daemon's own) into a gid; without it, a daemon run as root
    /// gives its socket to the group `sesame` when that group exists (a root:root socket would
    /// shut out the readers the default `[access]` names), and any other daemon keeps its own.
    mutating func resolveSocketGroup(file: String?, uid: UInt32) throws(ConfigurationError) {
        guard let name = socketGroupName else {
            socketGroup = uid == 0 ? Self.groupID(named: "sesame") : nil
            return
        }
        if name.isEmpty {
            socketGroup = nil
        } else if let gid = UInt32(name) {
            socketGroup = gid
        } else if let gid = Self.groupID(named: name) {
            socketGroup = gid
        } else {
            let origin = file.map { "\($0): " } ?? ""
            throw ConfigurationError(message: "\(origin)'socket.group' names a group that does not exist: \(name)")
        }
    }

    static func groupID(named name: String) -> UInt32? {
        var entry = group()
        var found: UnsafeMutablePointer<group>? = nil
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getgrnam_r(name, &entry, &buffer, buffer.count, &found) == 0, found != nil else { return nil }
        return entry.gr_gid
    }
}
