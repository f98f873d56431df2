import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import SesameLocalAPI

@testable import SesameSocketServer

#if canImport(Glibc)
import Glibc
#endif

/// One connection of a real server (in front of ``StubLocalAPIService``) whose channel is an
/// `NIOAsyncTestingChannel`: the test decides what each read holds (a byte, many lines) and
/// sees every write the connection makes, with no socket and no sleep. Used by one test task.
final class EmbeddedConnection {
    let channel: NIOAsyncTestingChannel
    /// What a ``StalledSocket`` in front of the connection holds (nil: writes go through).
    let socket: StalledSocket.Counters?
    /// Bytes written and not yet taken as lines.
    private var received: [UInt8] = []

    /// Adds a connection from this process (a manager) to `server`, behind a ``StalledSocket``
    /// when `stalled`, on `loop` (a new one when nil).
    init(server: LocalAPIServer, stalled: Bool = false, loop: NIOAsyncTestingEventLoop? = nil) async throws {
        let channel = loop.map { NIOAsyncTestingChannel(loop: $0) } ?? NIOAsyncTestingChannel()
        let counters = stalled ? StalledSocket.Counters() : nil
        try await channel.testingEventLoop.executeInContext {
            if let counters { try channel.pipeline.syncOperations.addHandler(StalledSocket(counters: counters)) }
            try server.addConnection(
                channel, peer: PeerCredentials(pid: getpid(), uid: getuid(), gid: getgid(), process: .daemonNamespaces))
        }
        try await channel.connect(to: SocketAddress(unixDomainSocketPath: "/embedded"))
        self.channel = channel
        self.socket = counters
    }

    /// Runs `body` with a fresh server in front of a ``StubLocalAPIService`` (an anonymous
    /// session) and one embedded connection to it; the server stops afterwards, also when
    /// `body` throws.
    static func with(
        stalled: Bool = false, _ body: (EmbeddedServer, EmbeddedConnection) async throws -> Void
    ) async throws {
        let server = await EmbeddedServer()
        do {
            try await body(server, try await EmbeddedConnection(server: server.server, stalled: stalled))
        } catch {
            await server.server.stop()
            throw error
        }
        await server.server.stop()
    }

    /// One read of `text`; then the loop runs what it queued (the burst's flush).
    func send(_ text: String) async throws { try await send(bytes: Array(text.utf8)) }

    func send(bytes: [UInt8]) async throws {
        try await channel.writeInbound(ByteBuffer(bytes: bytes))
        await channel.testingEventLoop.run()
    }

    /// The next line written, waiting for it (a suite's time limit fails a missing one).
    func nextLine() async throws -> String {
        while true {
            if let line = takeLine() { return line }
            let buffer = try await channel.waitForOutboundWrite(as: ByteBuffer.self)
            received += buffer.readableBytesView
        }
    }

    func next() async throws -> JSONValue { try JSONValue.parse(try await nextLine()) }

    /// The writes made so far, each as it was handed to the channel.
    func writes() async throws -> [ByteBuffer] {
        await channel.testingEventLoop.run()
        var writes: [ByteBuffer] = []
        while let buffer = try await channel.readOutbound(as: ByteBuffer.self) { writes.append(buffer) }
        return writes
    }

    /// The complete lines written so far.
    func writtenLines() async throws -> [String] {
        for buffer in try await writes() { received += buffer.readableBytesView }
        var lines: [String] = []
        while let line = takeLine() { lines.append(line) }
        return lines
    }

    /// Whether the channel reads on its own: false while the connection paused reading.
    var readsAutomatically: Bool {
        channel.options.last { $0.option is ChannelOptions.Types.AutoReadOption }?.value as? Bool ?? true
    }

    /// One tick of the server's idle ticker.
    func idleTick() async throws {
        let channel = self.channel
        try await channel.testingEventLoop.executeInContext {
            channel.pipeline.fireUserInboundEventTriggered(IdleTick())
        }
        await channel.testingEventLoop.run()
    }

    /// The peer reads everything the ``StalledSocket`` holds.
    func peerReads() async throws {
        try await channel.pipeline.triggerUserOutboundEvent(StalledSocket.PeerReads()).get()
        await channel.testingEventLoop.run()
    }

    private func takeLine() -> String? {
        guard let newline = received.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let line = String(decoding: received[..<newline], as: UTF8.self)
        received.removeSubrange(...newline)
        return line
    }
}

/// A socket server whose service is a stub, with nothing bound: its connections are embedded.
struct EmbeddedServer {
    let service = StubLocalAPIService()
    let server: LocalAPIServer

    init() async {
        server = LocalAPIServer(
            configuration: LocalAPIServerConfiguration(
                endpoint: .path("/embedded", mode: 0o600), maximumConnections: 1024,
                access: AccessPolicy(daemonUid: getuid()), version: "test"),
            calls: service, instance: "i-embedded",
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        await server.connectHub()
    }
}

/// The socket of a peer that does not read: every write is kept (nothing reaches the peer), and
/// past the high-water mark the server sets (``ConnectionHandler/maximumQueuedAnswerBytes``)
/// the channel is not writable, as NIO makes it; ``PeerReads`` writes everything through and
/// makes it writable again, as when the peer reads.
final class StalledSocket: ChannelOutboundHandler {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    struct PeerReads {}

    /// Bytes held now, and the most ever held at once.
    final class Counters: Sendable {
        private let bytes = NIOLockedValueBox((held: 0, most: 0))
        var held: Int { bytes.withLockedValue { $0.held } }
        var most: Int { bytes.withLockedValue { $0.most } }

        fileprivate func set(_ held: Int) {
            bytes.withLockedValue { $0 = (held, max($0.most, held)) }
        }
    }

    private let counters: Counters
    private var held: [(ByteBuffer, EventLoopPromise<Void>?)] = []
    private var heldBytes = 0

    init(counters: Counters) { self.counters = counters }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let buffer = unwrapOutboundIn(data)
        held.append((buffer, promise))
        heldBytes += buffer.readableBytes
        counters.set(heldBytes)
        if heldBytes > ConnectionHandler.maximumQueuedAnswerBytes { setWritable(false, context: context) }
    }

    func flush(context: ChannelHandlerContext) {}

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is PeerReads else { return context.triggerUserOutboundEvent(event, promise: promise) }
        let all = held
        held = []
        heldBytes = 0
        counters.set(0)
        for (buffer, written) in all { context.write(wrapOutboundOut(buffer), promise: written) }
        context.flush()
        setWritable(true, context: context)
        context.fireChannelWritabilityChanged()
        promise?.succeed()
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        failHeld()
        context.close(mode: mode, promise: promise)
    }

    func handlerRemoved(context: ChannelHandlerContext) { failHeld() }

    private func failHeld() {
        let all = held
        held = []
        heldBytes = 0
        for (_, promise) in all { promise?.fail(ChannelError.ioOnClosedChannel) }
    }

    private func setWritable(_ writable: Bool, context: ChannelHandlerContext) {
        (context.channel as? NIOAsyncTestingChannel)?.isWritable = writable
    }
}
