import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import ServiceLifecycle
import SesameCore
import SesameLocalAPI
import SesameService

#if canImport(Glibc)
import Glibc
#endif

/// The Unix-socket server of the local API: binds (or adopts) the socket, accepts
/// connections up to the limit, and on graceful shutdown tells subscribers and closes.
///
/// Use: ``bind()`` (after the keyring is loaded; then the daemon is ready), then ``run()`` in
/// the service group. It follows the session through ``SessionService/events()``, opened in
/// ``bind()``: nothing needs wiring afterwards.
public final class LocalAPIServer: Service, Sendable {
    private let configuration: LocalAPIServerConfiguration
    private let service: SessionService
    private let logger: Logger
    private let group: any EventLoopGroup
    private let hub: SubscriptionHub
    private let dispatcher: LocalAPIDispatcher
    private let connectionCount = NIOLockedValueBox(0)
    private let connections = NIOLockedValueBox([ObjectIdentifier: any Channel]())
    private let serverChannel = NIOLockedValueBox<(any Channel)?>(nil)
    private let follower = NIOLockedValueBox<Task<Void, Never>?>(nil)
    /// Read bursts handled so far, for telling an idle daemon from a busy one.
    public let activity = LocalAPIActivity()
    /// One ``LoopFlush`` per event loop, made for the loop's first connection.
    private let flushes = NIOLockedValueBox([ObjectIdentifier: NIOLoopBound<LoopFlush>]())

    public init(
        configuration: LocalAPIServerConfiguration, service: SessionService, instance: String, usernamesEnabled: Bool,
        logger: Logger, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.configuration = configuration
        self.service = service
        self.logger = logger
        self.group = group
        self.hub = SubscriptionHub(flushChunk: configuration.fanOutChunk)
        self.dispatcher = LocalAPIDispatcher(
            service: service, hub: hub, instance: instance, version: configuration.version,
            usernamesEnabled: usernamesEnabled, logger: logger)
    }

    /// Number of open connections.
    public var openConnections: Int { connectionCount.withLockedValue { $0 } }

    /// Starts following the session's events (the first, its snapshot, is in before this
    /// returns), then binds or adopts the socket. After it returns, clients can connect.
    /// - Throws: ``LocalAPIServerError`` naming the path when it cannot be used.
    public func bind() async throws {
        let events = await service.events()
        let hub = self.hub
        follower.withLockedValue {
            $0 = Task {
                for await event in events { hub.publish(event) }
            }
        }
        await hub.waitUntilPublished(0)
        let bootstrap = ServerBootstrap(group: group)
            // As under socket activation (systemd's Backlog= default, the kernel's SOMAXCONN): a
            // Unix socket's connect fails at once with EAGAIN when the queue is full, so a burst
            // of clients at boot must fit in it.
            .serverChannelOption(ChannelOptions.backlog, value: 4096)
            .childChannelOption(
                ChannelOptions.writeBufferWaterMark,
                value: .init(
                    low: ProtocolLimits.maximumUnreadNotificationBytes / 2,
                    high: ProtocolLimits.maximumUnreadNotificationBytes)
            )
            .childChannelInitializer { [self] channel in
                self.initializeConnection(channel)
            }
        let channel: any Channel
        switch configuration.endpoint {
        case .path(let path, let mode):
            try Self.prepareSocketPath(path)
            do {
                channel = try await bootstrap.bind(unixDomainSocketPath: path, cleanupExistingSocketFile: false).get()
            } catch {
                throw LocalAPIServerError(message: "Cannot listen on the socket \(path): \(error)")
            }
            if chmod(path, mode_t(mode)) != 0 {
                logger.warning("Could not set the socket's mode", metadata: ["socket.path": "\(path)"])
            }
            logger.info("Listening", metadata: ["socket.path": "\(path)"])
        case .adopted(let descriptor):
            do {
                channel = try await bootstrap.withBoundSocket(descriptor).get()
            } catch {
                throw LocalAPIServerError(
                    message: "Cannot adopt the socket systemd passed (fd \(descriptor)): \(error)")
            }
            logger.info("Listening on the socket systemd passed", metadata: ["socket.fd": "\(descriptor)"])
        }
        serverChannel.withLockedValue { $0 = channel }
    }

    /// Serves until graceful shutdown, then tells subscribers and closes every connection.
    public func run() async throws {
        try? await gracefulShutdown()
        await stop()
    }

    /// Stops accepting, sends `shutdown` to subscribers and closes connections.
    public func stop() async {
        await service.announceShutdown(reason: "stopping")
        await hub.waitUntilPublished(await service.emittedEvents)
        follower.withLockedValue { $0?.cancel() }
        hub.finish()
        let listener = serverChannel.withLockedValue { channel -> (any Channel)? in
            defer { channel = nil }
            return channel
        }
        try? await listener?.close()
        if case .path(let path, _) = configuration.endpoint { unlink(path) }
        let open = connections.withLockedValue { Array($0.values) }
        for channel in open {
            // Queued behind the shutdown notification on the same event loop.
            channel.eventLoop.execute { channel.close(promise: nil) }
        }
        for channel in open { try? await channel.closeFuture.get() }
    }

    private func initializeConnection(_ channel: any Channel) -> EventLoopFuture<Void> {
        let maximum = configuration.maximumConnections
        let admitted = connectionCount.withLockedValue { count -> Bool in
            guard count < maximum else { return false }
            count += 1
            return true
        }
        guard admitted else {
            logger.warning("Refusing a connection: too many connections", metadata: ["limit": "\(maximum)"])
            return channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(RefuseConnectionHandler())
            }
        }
        let id = ObjectIdentifier(channel)
        connections.withLockedValue { $0[id] = channel }
        channel.closeFuture.whenComplete { [connectionCount, connections] _ in
            connectionCount.withLockedValue { $0 -= 1 }
            connections.withLockedValue { $0[id] = nil }
        }
        let access = configuration.access
        let dispatcher = self.dispatcher
        let hub = self.hub
        let logger = self.logger
        let activity = self.activity
        let flush = NIOLoopBound(loopFlush(for: channel.eventLoop), eventLoop: channel.eventLoop)
        return PeerCredentials.read(from: channel).flatMapThrowing { peer in
            let role = access.role(for: peer)
            logger.debug(
                "Accepted a connection",
                metadata: ["peer.pid": "\(peer.pid)", "peer.uid": "\(peer.uid)", "peer.role": "\(role.rawValue)"])
            let output = ConnectionOutput(channel: channel)
            let caller = LocalAPIDispatcher.Caller(peer: peer, role: role, output: output)
            try channel.pipeline.syncOperations.addHandler(
                ConnectionHandler(
                    dispatcher: dispatcher, caller: caller, hub: hub, activity: activity, flush: flush.value,
                    logger: logger))
        }
    }

    /// The loop's ``LoopFlush``; called on `eventLoop`.
    private func loopFlush(for eventLoop: any EventLoop) -> LoopFlush {
        flushes.withLockedValue { flushes in
            let key = ObjectIdentifier(eventLoop)
            if let existing = flushes[key] { return existing.value }
            let flush = LoopFlush(eventLoop: eventLoop)
            flushes[key] = NIOLoopBound(flush, eventLoop: eventLoop)
            return flush
        }
    }

    /// Refuses to take over a socket another live process listens on; removes a stale one.
    static func prepareSocketPath(_ path: String) throws {
        guard path.utf8.count < 108 else {
            throw LocalAPIServerError(
                message: "The socket path \(path) is longer than 107 bytes; choose a shorter one.")
        }
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            do {
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
            } catch {
                throw LocalAPIServerError(
                    message: "Cannot create the socket's directory \(directory): \(error.localizedDescription)")
            }
        }
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard (info.st_mode & S_IFMT) == S_IFSOCK else {
            throw LocalAPIServerError(
                message: "\(path) exists and is not a socket; remove it or choose another --socket path.")
        }
        if isListening(path) {
            throw LocalAPIServerError(message: "Another daemon is already listening on \(path).")
        }
        unlink(path)
    }

    private static func isListening(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in bytes.enumerated() where i < raw.count - 1 { raw[i] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return result == 0
    }
}

/// Sends `too-many-connections` to a connection over the limit and closes it.
final class RefuseConnectionHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    func channelActive(context: ChannelHandlerContext) {
        var line = LocalAPIMessage.failure(id: .null, error: .tooManyConnections).encoded()
        line.append(UInt8(ascii: "\n"))
        var buffer = context.channel.allocator.buffer(capacity: line.count)
        buffer.writeBytes(line)
        let channel = context.channel
        context.writeAndFlush(NIOAny(buffer)).whenComplete { _ in channel.close(promise: nil) }
    }
}
