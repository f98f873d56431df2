import Foundation
import SesameCore

/// The session's event bus: the sequence, the count of events, and whoever hears them.
///
/// Owned by ``SessionService`` and used only inside it. ``emit(_:state:token:)`` hands the
/// event to every sink before it returns (the local API server's hub is one: it queues the
/// notification to every subscriber in the same actor turn that changed the state, so an
/// answer sent after the change always follows its notifications), then yields it to every
/// open stream (``SessionService/events()``).
struct SessionEvents {
    /// Called synchronously with every event, in order. Must not block or call the service.
    typealias Sink = @Sendable (SessionEvent) -> Void

    /// Grows by one with every event whose kind advances it; starts at 1.
    private(set) var sequence: Int64 = 1
    /// How many events were emitted (each event's ``SessionEvent/index``).
    private(set) var emitted: Int64 = 0
    /// `shutdown` was emitted.
    private(set) var shutdownAnnounced = false
    /// The bus is closed: streams ended, nothing more is emitted to them.
    private(set) var isFinished = false
    /// The calendar offset the last event's dates were shown with (``SessionEvent/calendarOffset``).
    private(set) var shownOffset: TimeInterval = 0
    private var sinks: [Sink] = []
    private var streams: [AsyncStream<SessionEvent>.Continuation] = []

    /// Stamps `state` with the sequence after `kind` and delivers the event; returns it.
    @discardableResult
    mutating func emit(
        _ kind: SessionEvent.Kind, state: AuthState, token: IDToken?, calendarOffset: TimeInterval = 0
    ) -> SessionEvent {
        if kind.advancesSequence { sequence += 1 }
        emitted += 1
        shownOffset = calendarOffset
        let event = stamped(kind, state: state, token: token, index: emitted, calendarOffset: calendarOffset)
        for sink in sinks { sink(event) }
        // A stream whose consumer went away is dropped here, on the next event.
        streams.removeAll { continuation in
            if case .terminated = continuation.yield(event) { return true }
            return false
        }
        return event
    }

    /// Emits `shutdown` the first time only.
    mutating func announceShutdown(reason: String, state: AuthState, token: IDToken?, calendarOffset: TimeInterval = 0)
    {
        guard !shutdownAnnounced else { return }
        shutdownAnnounced = true
        emit(.shutdown(reason: reason), state: state, token: token, calendarOffset: calendarOffset)
    }

    /// Adds a sink and hands it the snapshot (the state now) before it returns; once
    /// finished, only the snapshot.
    mutating func add(_ sink: @escaping Sink, state: AuthState, token: IDToken?, calendarOffset: TimeInterval = 0) {
        sink(stamped(.snapshot, state: state, token: token, index: emitted, calendarOffset: calendarOffset))
        if !isFinished { sinks.append(sink) }
    }

    /// A new stream: the snapshot first, then every event; only the snapshot once finished.
    mutating func open(state: AuthState, token: IDToken?, calendarOffset: TimeInterval = 0) -> AsyncStream<SessionEvent>
    {
        let (stream, continuation) = AsyncStream.makeStream(of: SessionEvent.self)
        continuation.yield(
            stamped(.snapshot, state: state, token: token, index: emitted, calendarOffset: calendarOffset))
        if isFinished {
            continuation.finish()
        } else {
            streams.append(continuation)
        }
        return stream
    }

    /// Ends every stream and lets the sinks go; later streams hold only their snapshot.
    mutating func finish() {
        isFinished = true
        for continuation in streams { continuation.finish() }
        streams = []
        sinks = []
    }

    private func stamped(
        _ kind: SessionEvent.Kind, state: AuthState, token: IDToken?, index: Int64, calendarOffset: TimeInterval
    ) -> SessionEvent {
        var state = state
        state.sequence = sequence
        return SessionEvent(
            kind: kind, state: state, sequence: sequence, currentToken: token, index: index,
            calendarOffset: calendarOffset)
    }
}

@available(*, unavailable)
extension SessionEvents: Sendable {}
