import Foundation
import Logging
import NIOCore
import NIOExtras
import NIOPosix
import SesameCore
import SesameLocalAPI
import SesameService
import SesameTesting

@testable import SesameSocketServer

/// A real daemon core (service + socket server) over the fake backend, on a Unix socket in a
/// short temporary path.
final class SocketHarness: Sendable {
    /// The service's clock (the one its token expiry and the server's cached answers use).
    let clock: ManualClock
    let provider: FakeRemoteAuthProvider
    let service: SessionService
    let server: LocalAPIServer
    let path: String
    let directory: String
    let loop: Task<Void, Never>

    static func start(
        maximumConnections: Int = 1024, configuration: SessionServiceConfiguration = .init(), fanOutChunk: Int = 1024,
        deviceFlows: Bool = false,
        server configure: (inout LocalAPIServerConfiguration) -> Void = { _ in }
    ) async throws -> SocketHarness {
        let directory = "/tmp/sst-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let clock = ManualClock()
        let provider = FakeRemoteAuthProvider(clock: clock)
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let service = SessionService(
            provider: provider, store: InMemorySessionStore(),
            deviceAuthorization: deviceFlows ? FakeDeviceAuthorizationClient(clock: clock) : nil,
            clock: clock, configuration: configuration, logger: logger)
        try await service.start()
        let path = directory + "/s.sock"
        var serverConfiguration = LocalAPIServerConfiguration(
            endpoint: .path(path, mode: 0o600), maximumConnections: maximumConnections,
            access: AccessPolicy(daemonUid: getuid()), version: "test", fanOutChunk: fanOutChunk)
        configure(&serverConfiguration)
        let server = LocalAPIServer(
            configuration: serverConfiguration, service: service, instance: "i-test",
            logger: logger)
        try await server.bind()
        let loop = Task { await service.run() }
        return SocketHarness(
            clock: clock, provider: provider, service: service, server: server, path: path, directory: directory,
            loop: loop)
    }

    private init(
        clock: ManualClock, provider: FakeRemoteAuthProvider, service: SessionService, server: LocalAPIServer,
        path: String, directory: String, loop: Task<Void, Never>
    ) {
        self.clock = clock
        self.provider = provider
        self.service = service
        self.server = server
        self.path = path
        self.directory = directory
        self.loop = loop
    }

    func stop() async {
        await server.stop()
        loop.cancel()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs `body` with a fresh server whose anonymous user exists and one client connected to
    /// it; the server stops afterwards, also when `body` throws.
    static func withAnonymousClient<T: Sendable>(
        _ body: (SocketHarness, inout LineClient) async throws -> T
    ) async throws -> T {
        let harness = try await start()
        do {
            try await harness.awaitAnonymous()
            let result = try await withClient(harness.path) { client in try await body(harness, &client) }
            await harness.stop()
            return result
        } catch {
            await harness.stop()
            throw error
        }
    }

    /// Waits until the anonymous user exists.
    func awaitAnonymous() async throws {
        try await eventually("the anonymous user exists") { await service.state.status == .anonymous }
    }
}

struct ConnectionClosed: Error {}

/// A line-oriented client over a real Unix socket.
struct LineClient {
    var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>

    func send(_ line: String) async throws {
        try await outbound.write(ByteBuffer(string: line + "\n"))
    }

    func send(bytes: [UInt8]) async throws {
        try await outbound.write(ByteBuffer(bytes: bytes))
    }

    /// The next line as JSON; fails when the daemon closes the connection. (Suites carry a
    /// time limit, so a missing line fails the test instead of hanging it.)
    mutating func receive() async throws -> JSONValue {
        guard let buffer = try await inbound.next() else { throw ConnectionClosed() }
        return try JSONValue.parse(Array(buffer.readableBytesView))
    }

    /// The next line exactly as the daemon sent it (without its newline).
    mutating func receiveLine() async throws -> String {
        guard let buffer = try await inbound.next() else { throw ConnectionClosed() }
        return String(decoding: buffer.readableBytesView, as: UTF8.self)
    }

    /// Whether the daemon closed the connection (reads until EOF).
    mutating func isClosedByPeer() async -> Bool {
        do {
            while try await inbound.next() != nil {}
            return true
        } catch {
            return true
        }
    }

    /// Sends a request and returns the first response to it, collecting notifications before it.
    mutating func call(
        _ method: String, id: Int = 1, params: JSONValue? = nil, notifications: inout [JSONValue]
    )
        async throws -> JSONValue
    {
        var request: [String: JSONValue] = ["jsonrpc": "2.0", "id": .integer(Int64(id)), "method": .string(method)]
        if let params { request["params"] = params }
        try await send(JSONValue.object(request).jsonString)
        while true {
            let message = try await receive()
            if message["id"] == .integer(Int64(id)) { return message }
            notifications.append(message)
        }
    }

    mutating func call(_ method: String, id: Int = 1, params: JSONValue? = nil) async throws -> JSONValue {
        var ignored: [JSONValue] = []
        return try await call(method, id: id, params: params, notifications: &ignored)
    }
}

/// Connects to `path` and runs `body` with a line client; the connection closes afterwards.
func withClient<T: Sendable>(_ path: String, _ body: (inout LineClient) async throws -> T) async throws -> T {
    let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .connect(unixDomainSocketPath: path) { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(
                    ByteToMessageHandler(LineBasedFrameDecoder(), maximumBufferSize: 2 << 20))
                return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
            }
        }
    return try await channel.executeThenClose { inbound, outbound in
        var client = LineClient(inbound: inbound.makeAsyncIterator(), outbound: outbound)
        return try await body(&client)
    }
}
