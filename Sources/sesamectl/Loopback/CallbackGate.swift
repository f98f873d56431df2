import Foundation
import NIOCore
import Synchronization

/// What the loopback listener's connections share: the launch address (once), then the first
/// callback that carries the flow's `state` and the browser's binding cookie, which is handed to
/// the command while its browser waits for the outcome's page. So one run of sesamectl sends at
/// most one `completeSignIn`, and only for the browser it opened.
///
/// - A callback with another `state` (anyone on the machine can send one) is answered with
///   ``CallbackPage/foreign`` and changes nothing: the listener keeps waiting.
/// - A callback with the flow's `state` but without the binding (the `state` leaked) and a
///   second fetch of the launch address (someone else opened it too) stop the sign-in: the
///   command cancels the flow, nobody is signed in.
final class CallbackGate: Sendable {
    /// How a connection answers a `GET /callback`.
    enum Arrival {
        /// The callback to hand over: the page comes when the command has the outcome; the
        /// connection fulfils `delivered` once it is written.
        case first(EventLoopFuture<CallbackPage>, delivered: EventLoopPromise<Void>)
        /// Any other: this page at once.
        case later(CallbackPage)
    }

    /// How a connection answers a `GET /launch/TOKEN`.
    enum Launch: Equatable {
        /// 302 to the provider, setting the binding cookie.
        case redirect(location: String, setCookie: String)
        case page(CallbackPage)
    }

    private enum Phase {
        case waiting
        case received(EventLoopPromise<CallbackPage>, delivered: EventLoopPromise<Void>)
        case stopped
        case answered
    }

    private struct Inner {
        var phase = Phase.waiting
        /// The provider's URL and the `state` its callback carries, once the flow started.
        var authorizationUrl: String?
        var state: String?
        var launched = false
    }

    private let inner = Mutex(Inner())
    let binding: LoopbackBinding
    /// What the command hears: the callback to complete, or why the sign-in must stop.
    let events: AsyncStream<LoopbackEvent>
    private let continuation: AsyncStream<LoopbackEvent>.Continuation

    init(binding: LoopbackBinding) {
        self.binding = binding
        (events, continuation) = AsyncStream.makeStream(of: LoopbackEvent.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// The flow started: where the launch address sends the browser, and the `state` a
    /// callback must carry (nil when the provider's URL has none: then only the binding counts).
    func expect(authorizationUrl: String, state: String?) {
        inner.withLock {
            $0.authorizationUrl = authorizationUrl
            $0.state = state
        }
    }

    /// A `GET` of `path` under `/launch/`.
    func launch(path: Substring) -> Launch {
        guard binding.isLaunch(path) else { return .page(.notFound) }
        let answer: Launch = inner.withLock { inner in
            guard let url = inner.authorizationUrl else { return .page(.notFound) }
            guard case .waiting = inner.phase else { return .page(.finished) }
            guard !inner.launched else {
                inner.phase = .stopped
                return .page(.launchReopened)
            }
            inner.launched = true
            return .redirect(location: url, setCookie: binding.setCookie)
        }
        if answer == .page(.launchReopened) { stop(.launchReopened) }
        return answer
    }

    /// A `GET /callback` with request target `target` and these `Cookie` headers arrived on
    /// `eventLoop`.
    func arrive(target: String, cookies: [String], on eventLoop: any EventLoop) -> Arrival {
        let given = Self.state(in: target)
        let bound = binding.isBound(cookieHeaders: cookies)
        let arrival: Arrival = inner.withLock { inner in
            guard case .waiting = inner.phase else { return .later(.finished) }
            guard inner.authorizationUrl != nil else { return .later(.foreign) }
            if let expected = inner.state, !LoopbackBinding.same(given ?? "", expected) { return .later(.foreign) }
            guard bound else {
                inner.phase = .stopped
                return .later(.unbound)
            }
            let promise = eventLoop.makePromise(of: CallbackPage.self)
            let delivered = eventLoop.makePromise(of: Void.self)
            inner.phase = .received(promise, delivered: delivered)
            return .first(promise.futureResult, delivered: delivered)
        }
        switch arrival {
        case .first: hand(.callback(target))
        case .later(let page) where page == .unbound: stop(.unboundCallback)
        case .later: break
        }
        return arrival
    }

    private func stop(_ reason: LoopbackStop) { hand(.stopped(reason)) }

    private func hand(_ event: LoopbackEvent) {
        continuation.yield(event)
        continuation.finish()
    }

    /// Answers the handed-over callback's browser with `page`; later calls change nothing. The
    /// future completes once the page is written (nil when no browser waits).
    @discardableResult
    func answer(_ page: CallbackPage) -> EventLoopFuture<Void>? {
        let waiting: (EventLoopPromise<CallbackPage>, EventLoopPromise<Void>)? = inner.withLock { inner in
            defer { inner.phase = .answered }
            if case .received(let promise, let delivered) = inner.phase { return (promise, delivered) }
            return nil
        }
        continuation.finish()
        guard let (promise, delivered) = waiting else { return nil }
        promise.succeed(page)
        return delivered.futureResult
    }

    /// The `state` of a callback's request target (`/callback?code=…&state=…`).
    static func state(in target: String) -> String? {
        URLComponents(string: target)?.queryItems?.first(where: { $0.name == "state" })?.value
    }
}

/// What the loopback listener tells the command.
enum LoopbackEvent: Sendable, Equatable {
    /// The browser came back with the flow's `state` and its binding: the request target.
    case callback(String)
    /// The sign-in must stop without signing anyone in.
    case stopped(LoopbackStop)
}

/// Why the loopback listener stopped a sign-in.
enum LoopbackStop: Sendable, Equatable {
    /// The launch address was fetched a second time: someone else may have opened it.
    case launchReopened
    /// A callback carried the flow's `state` without the browser's binding: the `state` leaked.
    case unboundCallback
}
