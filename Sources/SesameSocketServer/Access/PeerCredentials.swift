import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// Who is on the other end of a connection, from `SO_PEERCRED` and `SO_PEERGROUPS` when it
/// connected, and what its process is (``PeerProcess``, read from `/proc` through the peer's
/// pidfd where the kernel gives one).
public struct PeerCredentials: Sendable, Hashable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32
    /// The supplementary groups the peer's process had; nil when the kernel could not tell
    /// (before Linux 4.13, or more than 64 groups): then the user database answers.
    public var groups: [UInt32]?
    /// What the process is; ``PeerProcess/unknown`` when it could not be read.
    public var process: PeerProcess

    public init(pid: Int32, uid: UInt32, gid: UInt32, groups: [UInt32]? = nil, process: PeerProcess = .unknown) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.groups = groups
        self.process = process
    }
}

/// The layout of Glibc's `struct ucred`, which Swift cannot see without `_GNU_SOURCE`.
struct UCred {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}

extension PeerCredentials {
    /// `SO_PEERPIDFD` (Linux 6.5), which Glibc's headers may not name yet.
    static let peerPidfdOption: Int32 = 77

    /// Reads the peer's credentials and groups of a connected Unix-socket channel, and what its
    /// process is.
    static func read(from channel: any Channel, inspector: PeerInspector) -> EventLoopFuture<PeerCredentials> {
        guard let provider = channel as? any SocketOptionProvider else {
            return channel.eventLoop.makeFailedFuture(ChannelError.operationUnsupported)
        }
        let connectedAt = inspector.source.bootTicks()
        let future: EventLoopFuture<UCred> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        let pidfd: EventLoopFuture<Int32?> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(peerPidfdOption)
        ).map { (fd: Int32) -> Int32? in fd >= 0 ? fd : nil }.recover { _ in nil }
        return future.and(pidfd).flatMap { credentials, pidfd in
            let process = inspector.inspect(
                pid: credentials.pid, connectedAt: connectedAt,
                stillAlive: pidfd.map { fd in { Self.isAlive(pidfd: fd) } })
            if let pidfd { close(pidfd) }
            return PeerGroups.read(from: provider, on: channel.eventLoop).map { groups in
                PeerCredentials(
                    pid: credentials.pid, uid: credentials.uid, gid: credentials.gid, groups: groups, process: process)
            }
        }
    }

    /// Whether the process of a pidfd still runs (a pidfd polls readable once it has exited).
    static func isAlive(pidfd: Int32) -> Bool {
        var entry = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 0) >= 0 else { return false }
        return entry.revents & Int16(POLLIN) == 0
    }
}
