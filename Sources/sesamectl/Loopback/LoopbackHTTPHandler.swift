import NIOCore
import NIOHTTP1

/// One connection of the loopback listener: `GET /launch/TOKEN` and `GET /callback…` go to the
/// ``CallbackGate``; anything else is 404. Every answer closes the connection.
final class LoopbackHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let gate: CallbackGate
    private var head: HTTPRequestHead?

    init(gate: CallbackGate) { self.gate = gate }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body: break
        case .end:
            guard let head else { return }
            self.head = nil
            respond(to: head, context: context)
        }
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let path = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard head.method == .GET else {
            write(.notFound, context: context)
            return
        }
        if path.hasPrefix("/launch/") {
            switch gate.launch(path: path) {
            case .redirect(let location, let setCookie):
                redirect(to: location, setting: setCookie, context: context)
            case .page(let page):
                write(page, context: context)
            }
            return
        }
        guard path == LoopbackListener.callbackPath else {
            write(.notFound, context: context)
            return
        }
        switch gate.arrive(target: head.uri, cookies: head.headers["Cookie"], on: context.eventLoop) {
        case .later(let page):
            write(page, context: context)
        case .first(let page, let delivered):
            page.assumeIsolated().whenSuccess { page in
                self.write(page, context: context).whenComplete { _ in delivered.succeed() }
            }
        }
    }

    /// Sends the browser on to the provider with the binding cookie, and closes.
    private func redirect(to location: String, setting cookie: String, context: ChannelHandlerContext) {
        let headers = HTTPHeaders([
            ("Location", location), ("Set-Cookie", cookie), ("Content-Length", "0"), ("Connection", "close"),
            ("Cache-Control", "no-store"), ("Referrer-Policy", "no-referrer"),
        ])
        send(HTTPResponseHead(version: .http1_1, status: .found, headers: headers), body: nil, context: context)
    }

    /// Writes `page` and closes; the future completes when the page is flushed (or failed to be).
    @discardableResult
    private func write(_ page: CallbackPage, context: ChannelHandlerContext) -> EventLoopFuture<Void> {
        let body = ByteBuffer(string: page.html)
        let headers = HTTPHeaders([
            ("Content-Type", "text/html; charset=utf-8"), ("Content-Length", "\(body.readableBytes)"),
            ("Connection", "close"), ("Cache-Control", "no-store"), ("Referrer-Policy", "no-referrer"),
        ])
        return send(
            HTTPResponseHead(version: .http1_1, status: page.status, headers: headers), body: body, context: context)
    }

    @discardableResult
    private func send(
        _ head: HTTPResponseHead, body: ByteBuffer?, context: ChannelHandlerContext
    ) -> EventLoopFuture<Void> {
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if let body { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
        let flushed = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        flushed.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        return flushed
    }
}
