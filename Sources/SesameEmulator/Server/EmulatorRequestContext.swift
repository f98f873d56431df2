import Hummingbird
import NIOCore

/// Hummingbird request context that keeps the connection's channel, so the fault extension can
/// close a connection without answering, and the body ``EmulatorMiddleware`` read.
struct EmulatorRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connection the request arrived on.
    let channel: any Channel
    /// The request's body, read (and capped at ``maximumBodySize``) by ``EmulatorMiddleware``.
    var body: [UInt8] = []

    /// Bodies over 1 MiB are refused with 413.
    static var maximumBodySize: Int { 1 << 20 }

    var responseEncoder: EmulatorResponseEncoder { EmulatorResponseEncoder() }

    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
    }
}
