import SesameService

/// Collects a service's events so a test can await them instead of sleeping.
public final class EventRecorder: Sendable {
    private let stream: AsyncStream<SessionEvent>
    private let continuation: AsyncStream<SessionEvent>.Continuation

    public init() {
        (stream, continuation) = AsyncStream.makeStream(of: SessionEvent.self)
    }

    /// Pass this as the service's event sink.
    public var sink: SessionEventSink {
        let continuation = self.continuation
        return { continuation.yield($0) }
    }

    /// The events, in order, as they come.
    public var events: AsyncStream<SessionEvent> { stream }
}
