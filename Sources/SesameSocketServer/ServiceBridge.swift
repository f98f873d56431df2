import NIOCore
import SesameLocalAPI

/// The one bridge of a connection from its event loop into async code: each request the
/// session service answers runs in a task of its own, so reads and token requests from one
/// connection stay concurrent, and a request that changes the session first waits for the
/// connection's previous change: one connection's changes take effect in the order they were
/// sent (`updateProfile(a)` then `updateProfile(b)` ends on `b`).
///
/// Lives on the connection's event loop, like its handler.
final class ServiceBridge {
    private let service: any LocalAPIService
    /// The task carrying this connection's latest change; done once it has answered.
    private var lastChange: Task<Void, Never>?

    init(service: any LocalAPIService) {
        self.service = service
    }

    /// Runs `call` by the service and hands its answer to `answered` on `eventLoop`.
    func submit(
        _ call: LocalAPICall, method: LocalAPIMethod, on eventLoop: any EventLoop,
        answered: @escaping @Sendable (SplicedResponse) -> Void
    ) {
        let service = self.service
        let previous = method.changesSession ? lastChange : nil
        let task = Task {
            await previous?.value
            let answer = await service.execute(call, method: method)
            eventLoop.execute { answered(answer) }
        }
        if method.changesSession { lastChange = task }
    }
}
