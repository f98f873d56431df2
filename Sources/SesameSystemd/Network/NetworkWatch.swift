import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Tells when the machine's network changed: a link, an IPv4 or IPv6 address or route came or
/// went (rtnetlink: a `NETLINK_ROUTE` socket in the groups `RTMGRP_LINK`, `RTMGRP_IPV4_IFADDR`,
/// `RTMGRP_IPV6_IFADDR`, `RTMGRP_IPV4_ROUTE`, `RTMGRP_IPV6_ROUTE`).
///
/// Bursts are coalesced on the watch's own thread: one ``changes(coalescing:longest:unavailable:)``
/// element once the network has been quiet for `coalescing`, or after `longest` of changes without
/// a pause, so a flapping link makes a few elements, not a storm. The thread sleeps in poll(2)
/// with no timeout while nothing changes: no wake-up.
public enum NetworkWatch {
    // linux/rtnetlink.h and linux/netlink.h, which Glibc's module does not bring.
    private static let netlinkRoute: Int32 = 0
    // SOCK_RAW and SOCK_CLOEXEC (Linux's values on every architecture): the release build with
    // the static Swift runtime does not see Glibc's __socket_type enum in this file.
    private static let rawSocket: Int32 = 3
    private static let closeOnExec: Int32 = 0o2000000
    private static let groups: UInt32 = 0x1 | 0x10 | 0x40 | 0x100 | 0x400

    /// One element per coalesced burst of changes, until the consumer goes away.
    /// - Parameters:
    ///   - coalescing: how long the network must be quiet before a burst is reported.
    ///   - longest: a burst that goes on is reported after this long anyway.
    ///   - unavailable: called once when the netlink socket cannot be opened (a sandbox without
    ///     `AF_NETLINK`), with the reason; the stream then ends.
    ///   - wanted: asked on the watch's thread before a burst is reported; false drops it (an
    ///     online daemon has nothing to retry, so nothing of it runs).
    public static func changes(
        coalescing: Duration, longest: Duration, wanted: @escaping @Sendable () -> Bool = { true },
        unavailable: @escaping @Sendable (String) -> Void
    ) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let socketFD = socket(AF_NETLINK, rawSocket | closeOnExec, netlinkRoute)
        var ends: [Int32] = [-1, -1]
        guard socketFD >= 0, pipe(&ends) == 0 else {
            unavailable("netlink socket: \(String(cString: strerror(errno)))")
            if socketFD >= 0 { close(socketFD) }
            continuation.finish()
            return stream
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var address = NetlinkAddress(groups: groups)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketFD, $0, socklen_t(MemoryLayout<NetlinkAddress>.size))
            }
        }
        guard bound == 0 else {
            unavailable("netlink bind: \(String(cString: strerror(errno)))")
            for fd in [socketFD, ends[0], ends[1]] { close(fd) }
            continuation.finish()
            return stream
        }
        let (stopRead, stopWrite) = (ends[0], ends[1])
        continuation.onTermination = { _ in
            var byte: UInt8 = 1
            _ = write(stopWrite, &byte, 1)
        }
        let thread = Thread {
            watch(socketFD, stop: stopRead, coalescing: coalescing, longest: longest) {
                if wanted() { continuation.yield() }
            }
            continuation.finish()
            for fd in [socketFD, stopRead, stopWrite] { close(fd) }
        }
        thread.name = "sesame-netlink"
        thread.start()
        return stream
    }

    /// Reads until `stop` is readable, calling `report` once per coalesced burst.
    private static func watch(
        _ socketFD: Int32, stop: Int32, coalescing: Duration, longest: Duration, report: () -> Void
    ) {
        var burstStarted: ContinuousClock.Instant?
        var lastChange = ContinuousClock.now
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            var timeout: Int32 = -1
            if let started = burstStarted {
                let quietEnds = lastChange + coalescing
                let deadline = min(quietEnds, started + longest)
                timeout = milliseconds(ContinuousClock.now.duration(to: deadline))
            }
            var descriptors = [
                pollfd(fd: socketFD, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stop, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, 2, timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if descriptors[1].revents != 0 { return }
            if descriptors[0].revents != 0 {
                // Drain what is queued; ENOBUFS (the queue overflowed) is a change too.
                while recv(socketFD, &buffer, buffer.count, Int32(MSG_DONTWAIT)) > 0 || errno == ENOBUFS {}
                lastChange = ContinuousClock.now
                if burstStarted == nil { burstStarted = lastChange }
                continue
            }
            if burstStarted != nil, ready == 0 {
                burstStarted = nil
                report()
            }
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
    }
}

/// `struct sockaddr_nl`: family, padding, port id (0: the kernel assigns one), multicast groups.
private struct NetlinkAddress {
    var family = sa_family_t(AF_NETLINK)
    var padding: UInt16 = 0
    var portID: UInt32 = 0
    var groups: UInt32

    init(groups: UInt32) { self.groups = groups }
}
