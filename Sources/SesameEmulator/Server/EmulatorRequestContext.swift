import Hummingbird
import NIOCore
import SesameLocalAPI

/// Hummingbird request context that keeps the connection's channel, so the fault extension can
/// close a connection without answering.
struct EmulatorRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connection the request arrived on.
    let channel: any Channel
    /// The request's head as ``EmulatorMiddleware`` read it (path decoded, headers folded), so
    /// the route does not read it again.
    var head: EmulatorRequest?

    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
    }
}
