import NIOCore
import NIOHTTP1
import NIOPosix

/// The loopback listener of `sign-in --browser` (RFC 8252 §7.3): an HTTP/1 server on
/// 127.0.0.1 at a port the system picks. It serves the one-time launch address the browser is
/// opened at (a redirect to the provider that binds the browser, ``LoopbackBinding``), then
/// waits for that browser to come back to `/callback`. Only this process's run of sesamectl uses
/// it; it closes when the sign-in ends.
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

    /// The `redirectUri` of a browser flow's start: `http://127.0.0.1:PORT/callback`.
    var redirectUri: String { "http://127.0.0.1:\(port)\(Self.callbackPath)" }

    /// Listens on 127.0.0.1, port 0.
    static func start(
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> LoopbackListener {
        let gate = CallbackGate(binding: LoopbackBinding())
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

    /// The flow started: returns the one-time launch address to open the browser at
    /// (`http://127.0.0.1:PORT/launch/TOKEN`), which sends it to `authorizationUrl`. A callback
    /// must carry `state` (when the flow said one).
    func launchAddress(opening authorizationUrl: String, state: String?) -> String {
        gate.expect(authorizationUrl: authorizationUrl, state: state)
        return "http://127.0.0.1:\(port)\(gate.binding.launchPath)"
    }

    /// What happened first: the full URL of the callback to complete
    /// (`http://127.0.0.1:PORT/callback?…`, its page waiting for ``answer(_:)``), or why the
    /// sign-in must stop. Nil when the listener closed first.
    func next() async -> LoopbackEvent? {
        for await event in gate.events {
            if case .callback(let target) = event { return .callback("http://127.0.0.1:\(port)\(target)") }
            return event
        }
        return nil
    }

    /// Answers the handed-over callback's browser with `page` and waits until it is written.
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
