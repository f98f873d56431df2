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
/// the service group. ``bind()`` hands the service the hub as its publish sink
/// (``SessionService/publish(to:)``): every change reaches the subscribers in the actor turn
/// that makes it, with no task in between; nothing needs wiring afterwards.
public final class LocalAPIServer: Service, Sendable {
    private let configuration: LocalAPIServerConfiguration
    private let service: any LocalAPIService
    private let logger: Logger
    private let group: any EventLoopGroup
    private let hub: SubscriptionHub
    private let dispatcher: LocalAPIDispatcher
    /// Who holds the connections (``ConnectionSlots``).
    private let slots: NIOLockedValueBox<ConnectionSlots>
    /// Log lines about peers, rate-limited.
    private let peerLog: PeerLog
    let connections = NIOLockedValueBox([ObjectIdentifier: any Channel]())
    private let serverChannel = NIOLockedValueBox<(any Channel)?>(nil)
    /// Read bursts handled so far, for telling an idle daemon from a busy one.
    public let activity = LocalAPIActivity()
    /// One ``LoopFlush`` per event loop, made for the loop's first connection.
    private let flushes = NIOLockedValueBox([ObjectIdentifier: NIOLoopBound<LoopFlush>]())
    /// Reads what each peer's process is when it connects.
    private let inspector: PeerInspector

    public convenience init(
        configuration: LocalAPIServerConfiguration, service: SessionService, instance: String,
        logger: Logger, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.init(
            configuration: configuration, calls: SessionCalls(service: service, logger: logger), instance: instance,
            logger: logger, group: group)
    }

    /// A server in front of `calls` (the daemon's are ``SessionCalls``; tests use a stub).
    init(
        configuration: LocalAPIServerConfiguration, calls service: any LocalAPIService, instance: String,
        logger: Logger, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.configuration = configuration
        self.service = service
        self.logger = logger
        self.group = group
        self.hub = SubscriptionHub(flushChunk: configuration.fanOutChunk, calendarOffset: service.calendarOffset)
        self.slots = NIOLockedValueBox(configuration.slots)
        self.peerLog = PeerLog(logger: logger)
        self.inspector = PeerInspector(source: configuration.processSource)
        self.dispatcher = LocalAPIDispatcher(
            service: service, hub: hub, instance: instance, version: configuration.version,
            forcedRefreshes: NIOLockedValueBox(ForcedRefreshLimiter(interval: configuration.forcedRefreshInterval)),
            accessRequests: AccessRequests(
                hub: hub, limits: configuration.accessRequestLimits,
                store: configuration.accessGrantsPath.map(AccessGrantStore.init(path:)), now: service.now))
    }

    /// Has the service publish to the hub; its snapshot is in before this returns.
    func connectHub() async {
        let hub = self.hub
        await service.publish { event in hub.publish(event) }
    }

    /// Number of open connections.
    public var openConnections: Int { slots.withLockedValue { $0.total } }

    /// Has the service publish to the hub (its snapshot is in before this returns), then binds
    /// or adopts the socket. After it returns, clients can connect.
    /// - Throws: ``LocalAPIServerError`` naming the path when it cannot be used.
    public func bind() async throws {
        await connectHub()
        let bootstrap = ServerBootstrap(group: group)
            // A Unix socket's connect fails at once with EAGAIN when the queue is full, so a
            // burst of clients at boot must fit in it; and a connection queued behind all the
            // others waits for the daemon to take each of them first. 1,024 (the default
            // max_connections) holds a boot's burst, and bounds that wait under a flood of
            // connects to a fraction of a second: 4,096 (the kernel's SOMAXCONN) kept new
            // clients waiting 3-5 s behind a peer that reconnects as fast as it can.
            .serverChannelOption(ChannelOptions.backlog, value: 1024)
            // One read per wake-up: what is read past a pause only waits, so a connection that
            // does not read its answers holds at most one read (64 KiB) of requests. A client
            // that sends small requests reads less than a buffer anyway (NIO then stops after one).
            .childChannelOption(ChannelOptions.maxMessagesPerRead, value: 1)
            // Answers beyond this wait unwritten: the connection stops reading until the
            // socket takes them (ConnectionHandler). Notifications have their own limit.
            .childChannelOption(
                ChannelOptions.writeBufferWaterMark,
                value: .init(
                    low: ConnectionHandler.maximumQueuedAnswerBytes / 2,
                    high: ConnectionHandler.maximumQueuedAnswerBytes)
            )
            // Out of descriptors (EMFILE), accept() fails: the listener pauses a second and
            // tries again (NIO's ServerBootstrap adds no backoff itself: it would retry at
            // once, in a busy loop), and says so, rate-limited.
            .serverChannelInitializer { [peerLog] channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        AcceptBackoffHandler { error in
                            let delay = AcceptBackoffHandler.defaultBackoffProvider(error: error)
                            if delay != nil {
                                peerLog.log(
                                    .acceptFailed, .warning, "Cannot accept connections; trying again in a second",
                                    metadata: ["error": "\(error.errnoCode)"])
                            }
                            return delay
                        })
                }
            }
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
            configuration.afterBind?(path)
            do {
                try SocketFile.secure(path, mode: mode, group: configuration.socketGroup)
            } catch {
                try? await channel.close()
                throw error
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

    /// The calendar clock was set (``SessionService/calendarChanged()`` tells subscribers): what
    /// the server answers from the published state shows its dates on the calendar as it reads
    /// now. Requests never read the calendar themselves.
    public func calendarChanged() {
        hub.calendarChanged()
    }

    /// Stops accepting, sends `shutdown` to subscribers and closes connections.
    public func stop() async {
        // Queued to every subscriber before this returns.
        await service.announceShutdown(reason: "stopping")
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
        PeerCredentials.read(from: channel, inspector: inspector).flatMapThrowing { [self] peer in
            try self.addConnection(channel, peer: peer)
        }
    }

    /// Admits `channel`, a connection from `peer`, and adds its handler; on `channel`'s event
    /// loop. Tests call it with an embedded channel (no socket to read credentials from).
    func addConnection(_ channel: any Channel, peer: PeerCredentials) throws {
        if let refusal = slots.withLockedValue({ $0.admit(peer.uid) }) {
            Self.logRefusal(refusal, peer: peer, slots: slots, peerLog: peerLog)
            try channel.pipeline.syncOperations.addHandler(RefuseConnectionHandler())
            return
        }
        let id = ObjectIdentifier(channel)
        let (slots, connections) = (self.slots, self.connections)
        let changed = configuration.connectionsChanged
        // Counted before the call: `changed?(…)` would not evaluate its argument without a listener.
        let open = connections.withLockedValue {
            $0[id] = channel
            return $0.count
        }
        changed?(open)
        channel.closeFuture.whenComplete { _ in
            slots.withLockedValue { $0.release(peer.uid) }
            let open = connections.withLockedValue {
                $0[id] = nil
                return $0.count
            }
            changed?(open)
        }
        if configuration.idleTimeout > 0 {
            // Every quarter of the idle timeout the connection is told (``IdleTick``), by a timer
            // of its own event loop that ends with it: no task outside the loop; every
            // connection's on one grid (``IdleTicker``).
            let quarter = TimeAmount.nanoseconds(
                Int64(configuration.idleTimeout * 1_000_000_000 / Double(IdleTick.ticksToClose)))
            IdleTicker.start(on: channel, every: quarter)
        }
        let role = configuration.roleOfPeer?(peer) ?? configuration.access.role(for: peer)
        logger.debug(
            "Accepted a connection",
            metadata: [
                "peer.pid": "\(peer.pid)", "peer.uid": "\(peer.uid)", "peer.role": "\(role.rawValue)",
                "peer.exe": "\(peer.process.executable ?? "-")", "peer.unit": "\(peer.process.unit ?? "-")",
            ])
        let output = ConnectionOutput(channel: channel)
        let access = ConnectionAccess(peer: peer, configured: role, output: output)
        let accessRequests = dispatcher.accessRequests
        accessRequests.attach(access)
        channel.closeFuture.whenComplete { _ in accessRequests.detach(access) }
        let caller = LocalAPIDispatcher.Caller(access: access)
        try channel.pipeline.syncOperations.addHandler(
            ConnectionHandler(
                dispatcher: dispatcher, caller: caller, hub: hub, activity: activity,
                flush: loopFlush(for: channel.eventLoop), peerLog: peerLog))
    }

    private static func logRefusal(
        _ refusal: ConnectionSlots.Refusal, peer: PeerCredentials, slots: NIOLockedValueBox<ConnectionSlots>,
        peerLog: PeerLog
    ) {
        let metadata: Logger.Metadata = ["peer.uid": "\(peer.uid)", "peer.pid": "\(peer.pid)"]
        switch refusal {
        case .full:
            let limit = slots.withLockedValue { $0.maximum }
            peerLog.log(
                .tooManyConnections, .warning, "Refusing a connection: too many connections",
                metadata: metadata.merging(["limit": "\(limit)"]) { a, _ in a })
        case .uidShare:
            let limit = slots.withLockedValue { $0.perUid }
            peerLog.log(
                .tooManyForUid, .warning, "Refusing a connection: this uid holds its share of connections",
                metadata: metadata.merging(["limit": "\(limit)"]) { a, _ in a })
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
}
