import Foundation
import NIOCore
import NIOPosix
import Testing

@testable import sesamectl

/// `sign-in --browser`'s loopback listener, over real HTTP on 127.0.0.1: the one-time launch
/// address, the binding cookie, and which callbacks are handed over.
@Suite("sesamectl loopback listener", .timeLimit(.minutes(1)))
struct SesameCtlLoopbackTests {
    static let provider = "https://idp.example/authorize?client_id=c&state=s1"

    /// Starts a listener for a flow whose callback carries `state` `s1`.
    private func started() async throws -> (LoopbackListener, launch: String) {
        let listener = try await LoopbackListener.start()
        let launch = listener.launchAddress(opening: Self.provider, state: "s1")
        return (listener, launch)
    }

    /// Fetches the launch address as the browser does: the `Cookie` header its answer sets.
    private func launch(_ listener: LoopbackListener, _ address: String) async throws -> String {
        let target = String(address.dropFirst("http://127.0.0.1:\(listener.port)".count))
        let response = try await HTTPGet.fetch(port: listener.port, target: target)
        #expect(response.hasPrefix("HTTP/1.1 302 Found\r\n"))
        #expect(response.contains("Location: \(Self.provider)\r\n"))
        let setCookie = try #require(HTTPGet.header("Set-Cookie", in: response))
        let attributes = setCookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(attributes.contains("HttpOnly") && attributes.contains("SameSite=Lax") && attributes.contains("Path=/"))
        return "Cookie: " + attributes[0]
    }

    @Test func theLaunchAddressSendsTheBrowserOnWithItsBindingAndItsCallbackIsHandedOver() async throws {
        let (listener, address) = try await started()
        #expect(listener.redirectUri == "http://127.0.0.1:\(listener.port)/callback")
        #expect(address.hasPrefix("http://127.0.0.1:\(listener.port)/launch/") && address.count > 70)
        #expect(!address.contains("s1") && !address.contains("idp.example"), "the launch address holds no secret")
        let cookie = try await launch(listener, address)
        let browser = Task {
            try await HTTPGet.fetch(port: listener.port, target: "/callback?code=x&state=s1", headers: [cookie])
        }
        #expect(await listener.next() == .callback("http://127.0.0.1:\(listener.port)/callback?code=x&state=s1"))
        await listener.answer(.signedIn)
        let response = try await browser.value
        #expect(response.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(response.contains("Content-Type: text/html; charset=utf-8"))
        #expect(response.contains("Signed in — you can close this tab"))
        #expect(!response.contains("code=x") && !response.contains("s1"), "the page never echoes the callback")

        // A second callback after the first: a page saying it is finished, and no second hand-over.
        let again = try await HTTPGet.fetch(port: listener.port, target: "/callback?code=z&state=s1", headers: [cookie])
        #expect(again.hasPrefix("HTTP/1.1 200 OK\r\n") && again.contains("already finished"))
        #expect(!again.contains("code=z"))
        await listener.close()
    }

    @Test func aCallbackWithAnotherStateIsRefusedAndTheListenerKeepsWaiting() async throws {
        let (listener, address) = try await started()
        let cookie = try await launch(listener, address)
        for (target, headers) in [
            ("/callback?code=evil&state=forged", []), ("/callback?code=evil&state=forged", [cookie]),
            ("/callback?code=evil", []), ("/callback?error=access_denied&state=s2", [cookie]),
        ] {
            let refused = try await HTTPGet.fetch(port: listener.port, target: target, headers: headers)
            #expect(refused.hasPrefix("HTTP/1.1 400 Bad Request\r\n") && refused.contains("does not belong"))
        }
        // The browser's own callback still comes through.
        let browser = Task {
            try await HTTPGet.fetch(port: listener.port, target: "/callback?state=s1&code=c", headers: [cookie])
        }
        #expect(await listener.next() == .callback("http://127.0.0.1:\(listener.port)/callback?state=s1&code=c"))
        await listener.answer(.signedIn)
        #expect(try await browser.value.contains("Signed in"))
        await listener.close()
    }

    @Test(arguments: [false, true])
    func theFlowsStateWithoutTheBrowsersBindingStopsTheSignIn(guessedCookie: Bool) async throws {
        let (listener, address) = try await started()
        let cookie = try await launch(listener, address)
        let name = cookie.dropFirst("Cookie: ".count).split(separator: "=")[0]
        let headers = guessedCookie ? ["Cookie: \(name)=guessed"] : []
        let stolen = try await HTTPGet.fetch(
            port: listener.port, target: "/callback?code=attacker&state=s1", headers: headers)
        #expect(stolen.hasPrefix("HTTP/1.1 403 Forbidden\r\n") && stolen.contains("nobody was signed in"))
        #expect(await listener.next() == .stopped(.unboundCallback))
        // The browser's own callback after that is not handed over either.
        let late = try await HTTPGet.fetch(port: listener.port, target: "/callback?code=c&state=s1", headers: [cookie])
        #expect(late.contains("already finished"))
        await listener.close()
    }

    @Test func aSecondFetchOfTheLaunchAddressStopsTheSignIn() async throws {
        let (listener, address) = try await started()
        let wrong = try await HTTPGet.fetch(port: listener.port, target: "/launch/0123")
        #expect(wrong.hasPrefix("HTTP/1.1 404 Not Found\r\n"), "a wrong token is nothing, and does not count")
        _ = try await launch(listener, address)
        let target = String(address.dropFirst("http://127.0.0.1:\(listener.port)".count))
        let again = try await HTTPGet.fetch(port: listener.port, target: target)
        #expect(again.hasPrefix("HTTP/1.1 403 Forbidden\r\n") && again.contains("opened a second time"))
        #expect(HTTPGet.header("Location", in: again) == nil && HTTPGet.header("Set-Cookie", in: again) == nil)
        #expect(await listener.next() == .stopped(.launchReopened))
        await listener.close()
    }

    @Test func otherPathsAre404AndDoNotCount() async throws {
        let (listener, address) = try await started()
        let favicon = try await HTTPGet.fetch(port: listener.port, target: "/favicon.ico")
        #expect(favicon.hasPrefix("HTTP/1.1 404 Not Found\r\n"))
        let other = try await HTTPGet.fetch(port: listener.port, target: "/callbackx?code=x")
        #expect(other.hasPrefix("HTTP/1.1 404 Not Found\r\n"))
        let post = try await HTTPGet.fetch(port: listener.port, target: "/callback?code=x", method: "POST")
        #expect(post.hasPrefix("HTTP/1.1 404 Not Found\r\n"))
        // The real callback still comes through as the first one.
        let cookie = try await launch(listener, address)
        let browser = Task {
            try await HTTPGet.fetch(port: listener.port, target: "/callback?state=s1&code=c", headers: [cookie])
        }
        #expect(await listener.next() == .callback("http://127.0.0.1:\(listener.port)/callback?state=s1&code=c"))
        await listener.answer(.failed("The sign-in failed: <b>denied</b> & \"refused\""))
        let page = try await browser.value
        #expect(page.contains("&lt;b&gt;denied&lt;/b&gt; &amp; &quot;refused&quot;"))
        #expect(!page.contains("<b>denied"))
        await listener.close()
    }

    @Test func closingAnswersAWaitingBrowserAndEndsTheWait() async throws {
        let (listener, address) = try await started()
        let cookie = try await launch(listener, address)
        let browser = Task {
            try await HTTPGet.fetch(port: listener.port, target: "/callback?code=x&state=s1", headers: [cookie])
        }
        _ = await listener.next()
        await listener.close()
        #expect(try await browser.value.contains("cancelled at the terminal"))
        let unused = try await LoopbackListener.start()
        await unused.close()
        #expect(await unused.next() == nil)
    }

    @Test func thePagesEscapeHTML() {
        #expect(CallbackPage.escaped("<a href='x'>&\"</a>") == "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;")
        #expect(CallbackPage.signedIn.html.contains("<h1>Signed in</h1>"))
    }
}

/// A plain HTTP/1.1 request over TCP, read until the server closes: what a browser sends.
enum HTTPGet {
    static func fetch(
        port: Int, target: String, method: String = "GET", headers: [String] = []
    ) async throws -> String {
        let collected = MultiThreadedEventLoopGroup.singleton.next().makePromise(of: String.self)
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Collector(done: collected))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        let extra = headers.map { $0 + "\r\n" }.joined()
        let request =
            "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(extra)Content-Length: 0\r\n\r\n"
        try await channel.writeAndFlush(ByteBuffer(string: request))
        return try await collected.futureResult.get()
    }

    /// The value of the first header `name` of a raw response.
    static func header(_ name: String, in response: String) -> String? {
        let head = response.components(separatedBy: "\r\n\r\n").first ?? ""
        for line in head.components(separatedBy: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            if line[..<colon].lowercased() == name.lowercased() {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
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
