import NIOCore
import NIOHTTP1
import NIOPosix

/// The loopback listener of `sign-in --browser` (RFC 8252 §7.3): an HTTP/1 server on
/// 127.0.0.1 at a port the system picks, that waits for the browser to come back to
/// `/callback`. Only this process's run of sesamectl uses it; it closes when the sign-in ends.
final class LoopbackListener: Sendable {
    static let callbackPath = "/callback"

    /// The port the system gave.
    let port: Int
    private let channel: any Channel
    private let gate: CallbackGate

    private init(port: Int, channel: any Channel, gate: CallbackGate) {
        self.port = port
        self.channel = channel
        self.gate = gate
    }

    /// The `redirectUri` for `startSignIn`: `http://127.0.0.1:PORT/callback`.
    var redirectUri: String { "http://127.0.0.1:\(port)\(Self.callbackPath)" }

    /// Listens on 127.0.0.1, port 0.
    static func start(
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> LoopbackListener {
        let gate = CallbackGate()
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 16)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(LoopbackHTTPHandler(gate: gate))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        guard let port = channel.localAddress?.port else {
            try? await channel.close()
            throw LoopbackListenerError.noPort
        }
        return LoopbackListener(port: port, channel: channel, gate: gate)
    }

    /// The full URL of the first `GET /callback` (`http://127.0.0.1:PORT/callback?…`), once the
    /// browser comes back; its page waits for ``answer(_:)``. Nil when the listener closed first.
    func callback() async -> String? {
        for await target in gate.targets { return "http://127.0.0.1:\(port)\(target)" }
        return nil
    }

    /// Answers the first callback's browser with `page` and waits until it is written.
    func answer(_ page: CallbackPage) async {
        try? await gate.answer(page)?.get()
    }

    /// Stops listening. A browser still waiting for its page gets `page` first (a page already
    /// answered stays as it was).
    func close(answering page: CallbackPage = .cancelled) async {
        await answer(page)
        try? await channel.close()
    }
}

enum LoopbackListenerError: Error, CustomStringConvertible {
    case noPort
    var description: String { "the loopback listener got no port" }
}
