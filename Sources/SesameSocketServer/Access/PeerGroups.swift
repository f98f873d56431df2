import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// A peer's supplementary groups as the kernel recorded them when it connected
/// (`SO_PEERGROUPS`, Linux 4.13 and later): the groups its process really had, not the ones
/// the user database lists for its uid today (a process may have dropped some, or a
/// container's database may say otherwise).
enum PeerGroups {
    /// Room for 64 groups; a peer in more is looked up in the user database instead.
    private struct GroupList {
        var gids:
            (
                UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
                UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
                UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
                UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
                UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32
            ) = (
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
            )
    }

    /// Nothing: asks only whether the peer has any group (`ERANGE` when it has one).
    private struct NoGroups {}

    /// The peer's supplementary groups, or nil when the kernel cannot tell (then the user
    /// database is asked).
    static func read(from provider: any SocketOptionProvider, on eventLoop: any EventLoop) -> EventLoopFuture<[UInt32]?>
    {
        let name = SocketOptionName(SO_PEERGROUPS)
        let level = SocketOptionLevel(SOL_SOCKET)
        let listed: EventLoopFuture<GroupList> = provider.unsafeGetSocketOption(level: level, name: name)
        return listed.flatMap { list -> EventLoopFuture<[UInt32]?> in
            let gids = withUnsafeBytes(of: list.gids) { Array($0.bindMemory(to: UInt32.self)) }
            // The kernel lists them sorted and leaves the rest of the room zero: a 0 after
            // a listed group is room. All zero is no group, or group 0 alone.
            guard let lastListed = gids.lastIndex(where: { $0 != 0 }) else {
                let any: EventLoopFuture<NoGroups> = provider.unsafeGetSocketOption(level: level, name: name)
                return any.map { _ -> [UInt32]? in [] }.flatMapErrorThrowing { error in
                    guard case let io as IOError = error, io.errnoCode == ERANGE else { throw error }
                    return [0]
                }
            }
            return eventLoop.makeSucceededFuture(Optional(Array(gids[...lastListed])))
        }.recover { _ in nil }
    }
}
