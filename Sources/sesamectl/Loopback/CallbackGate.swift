import NIOCore
import Synchronization

/// What the loopback listener's connections share: the first callback is handed to the
/// command and its browser waits for the outcome's page; every later one is told the sign-in is
/// finished. So one run of sesamectl sends at most one `completeSignIn`.
final class CallbackGate: Sendable {
    /// How a connection answers a `GET /callback`.
    enum Arrival {
        /// The first callback: the page comes when the command has the outcome; the connection
        /// fulfils `delivered` once it is written.
        case first(EventLoopFuture<CallbackPage>, delivered: EventLoopPromise<Void>)
        /// A later one: this page at once.
        case later(CallbackPage)
    }

    private enum Phase {
        case waiting
        case received(EventLoopPromise<CallbackPage>, delivered: EventLoopPromise<Void>)
        case answered
    }

    private let phase = Mutex<Phase>(.waiting)
    /// The first callback's request target (`/callback?code=…&state=…`).
    let targets: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation

    init() {
        (targets, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// A `GET /callback` with request target `target` arrived on `eventLoop`.
    func arrive(target: String, on eventLoop: any EventLoop) -> Arrival {
        let arrival: Arrival = phase.withLock { phase in
            guard case .waiting = phase else { return .later(.finished) }
            let promise = eventLoop.makePromise(of: CallbackPage.self)
            let delivered = eventLoop.makePromise(of: Void.self)
            phase = .received(promise, delivered: delivered)
            return .first(promise.futureResult, delivered: delivered)
        }
        if case .first = arrival {
            continuation.yield(target)
            continuation.finish()
        }
        return arrival
    }

    /// Answers the first callback's browser with `page`; later calls change nothing. The
    /// future completes once the page is written (nil when no browser waits).
    @discardableResult
    func answer(_ page: CallbackPage) -> EventLoopFuture<Void>? {
        let waiting: (EventLoopPromise<CallbackPage>, EventLoopPromise<Void>)? = phase.withLock { phase in
            defer { phase = .answered }
            if case .received(let promise, let delivered) = phase { return (promise, delivered) }
            return nil
        }
        continuation.finish()
        guard let (promise, delivered) = waiting else { return nil }
        promise.succeed(page)
        return delivered.futureResult
    }
}
