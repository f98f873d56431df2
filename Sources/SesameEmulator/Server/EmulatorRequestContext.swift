public import Hummingbird
public import NIOCore

/// Hummingbird request context that keeps the connection's channel, so the fault extension can
/// close a connection without answering.
public struct EmulatorRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The connection the request arrived on.
    public let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
    }
}
