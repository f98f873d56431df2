import Foundation
import NIOCore
import NIOPosix
import Testing

@testable import sesamectl

/// `sign-in --browser`'s loopback listener, over real HTTP on 127.0.0.1.
@Suite("sesamectl loopback listener", .timeLimit(.minutes(1)))
struct SesameCtlLoopbackTests {
    @Test func theFirstCallbackIsHandedOverWithItsFullURLAndItsBrowserGetsTheOutcomesPage() async throws {
        let listener = try await LoopbackListener.start()
        #expect(listener.port > 0)
        #expect(listener.redirectUri == "http://127.0.0.1:\(listener.port)/callback")
        let browser = Task { try await HTTPGet.fetch(port: listener.port, target: "/callback?code=x&state=y") }
        let url = await listener.callback()
        #expect(url == "http://127.0.0.1:\(listener.port)/callback?code=x&state=y")
        await listener.answer(.signedIn)
        let response = try await browser.value
        #expect(response.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(response.contains("Content-Type: text/html; charset=utf-8"))
        #expect(response.contains("Signed in — you can close this tab"))
        #expect(!response.contains("code=x") && !response.contains("state=y"), "the page never echoes the callback")

        // A second callback after the first: a page saying it is finished, and no second hand-over.
        let again = try await HTTPGet.fetch(port: listener.port, target: "/callback?code=z&state=y")
        #expect(again.hasPrefix("HTTP/1.1 200 OK\r\n") && again.contains("already finished"))
        #expect(!again.contains("code=z"))
        await listener.close()
    }

    @Test func otherPathsAre404AndDoNotCount() async throws {
        let listener = try await LoopbackListener.start()
        let favicon = try await HTTPGet.fetch(port: listener.port, target: "/favicon.ico")
        #expect(favicon.hasPrefix("HTTP/1.1 404 Not Found\r\n"))
        let other = try await HTTPGet.fetch(port: listener.port, target: "/callbackx?code=x")
        #expect(other.hasPrefix("HTTP/1.1 404 Not Found\r\n"))
        let post = try await HTTPGet.fetch(port: listener.port, target: "/callback?code=x", method: "POST")
        #expect(post.hasPrefix("HTTP/1.1 404 Not Found\r\n"))
        // The real callback still comes through as the first one.
        let browser = Task { try await HTTPGet.fetch(port: listener.port, target: "/callback?state=s&code=c") }
        #expect(await listener.callback() == "http://127.0.0.1:\(listener.port)/callback?state=s&code=c")
        await listener.answer(.failed("The sign-in failed: <b>denied</b> & \"refused\""))
        let page = try await browser.value
        #expect(page.contains("&lt;b&gt;denied&lt;/b&gt; &amp; &quot;refused&quot;"))
        #expect(!page.contains("<b>denied"))
        await listener.close()
    }

    @Test func closingAnswersAWaitingBrowserAndEndsTheWait() async throws {
        let listener = try await LoopbackListener.start()
        let browser = Task { try await HTTPGet.fetch(port: listener.port, target: "/callback?code=x") }
        _ = await listener.callback()
        await listener.close()
        #expect(try await browser.value.contains("cancelled at the terminal"))
        let unused = try await LoopbackListener.start()
        await unused.close()
        #expect(await unused.callback() == nil)
    }

    @Test func thePagesEscapeHTML() {
        #expect(CallbackPage.escaped("<a href='x'>&\"</a>") == "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;")
        #expect(CallbackPage.signedIn.html.contains("<h1>Signed in</h1>"))
    }
}

/// A plain HTTP/1.1 request over TCP, read until the server closes: what a browser sends.
enum HTTPGet {
    static func fetch(port: Int, target: String, method: String = "GET") async throws -> String {
        let collected = MultiThreadedEventLoopGroup.singleton.next().makePromise(of: String.self)
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Collector(done: collected))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        let request = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: 0\r\n\r\n"
        try await channel.writeAndFlush(ByteBuffer(string: request))
        return try await collected.futureResult.get()
    }

    final class Collector: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        private var bytes: [UInt8] = []
        private var finished = false
        private let done: EventLoopPromise<String>

        init(done: EventLoopPromise<String>) { self.done = done }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            bytes += unwrapInboundIn(data).readableBytesView
        }

        func channelInactive(context: ChannelHandlerContext) {
            guard !finished else { return }
            finished = true
            done.succeed(String(decoding: bytes, as: UTF8.self))
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            guard !finished else { return }
            finished = true
            done.fail(error)
            context.close(promise: nil)
        }
    }
}
