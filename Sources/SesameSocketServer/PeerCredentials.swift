import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// Who is on the other end of a connection, from `SO_PEERCRED` and `SO_PEERGROUPS` when it
/// connected.
public struct PeerCredentials: Sendable, Hashable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32
    /// The supplementary groups the peer's process had; nil when the kernel could not tell
    /// (before Linux 4.13, or more than 64 groups): then the user database answers.
    public var groups: [UInt32]?

    public init(pid: Int32, uid: UInt32, gid: UInt32, groups: [UInt32]? = nil) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.groups = groups
    }
}

/// The layout of Glibc's `struct ucred`, which Swift cannot see without `_GNU_SOURCE`.
struct UCred {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}

extension PeerCredentials {
    /// Reads the peer's credentials and groups of a connected Unix-socket channel.
    static func read(from channel: any Channel) -> EventLoopFuture<PeerCredentials> {
        guard let provider = channel as? any SocketOptionProvider else {
            return channel.eventLoop.makeFailedFuture(ChannelError.operationUnsupported)
        }
        let future: EventLoopFuture<UCred> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        return future.flatMap { credentials in
            PeerGroups.read(from: provider, on: channel.eventLoop).map { groups in
                PeerCredentials(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid, groups: groups)
            }
        }
    }
}
