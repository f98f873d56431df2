import Foundation
import SesameLocalAPI

/// A role a manager granted a program (``AccessRequests``): for the requesting connection
/// only, or remembered for the same uid and executable file until the daemon stops (`boot`) or
/// in the state directory (`always`).
struct AccessGrant: Sendable, Hashable, Codable {
    enum Remember: String, Sendable, Hashable, Codable {
        case connection
        case boot
        case always
    }

    var grantId: String
    var role: LocalAPIRole
    var remember: Remember
    var uid: UInt32
    var user: String?
    var executable: String?
    /// The executable's identity when granted: a file put in its place asks again.
    var file: FileIdentity?
    /// The connection's process, for a grant to one connection.
    var pid: Int32?
    var grantedAt: Date

    /// Whether a remembered grant applies to `peer`: the same uid, executable path and file.
    func applies(to peer: PeerCredentials) -> Bool {
        guard remember != .connection, let executable, let file else { return false }
        return peer.uid == uid && peer.process.executable == executable && peer.process.executableFile == file
    }

    var wire: SesameAccessGrant {
        SesameAccessGrant(
            grantId: grantId, role: role.rawValue, remember: remember.rawValue, uid: uid, user: user,
            executable: executable, pid: pid, grantedAt: grantedAt)
    }
}

extension LocalAPIRole: Codable {}
