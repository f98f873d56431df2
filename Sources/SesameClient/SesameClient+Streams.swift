/// The streams and the Firebase-style listener. They share the connection's one
/// subscription, which exists while any of them is being read; dropping a stream (or
/// removing a listener) unsubscribes when it was the last.
extension SesameClient {
    /// The current state, then every change, with ``SesameState/changeReason`` set.
    ///
    /// Reconnects by itself across daemon restarts and yields the fresh state. Ends only
    /// when the client closes (normally) or the daemon refuses the subscription (throwing
    /// ``SesameClientError``, e.g. `permission-denied`).
    public var stateChanges: AsyncThrowingStream<SesameState, any Error> {
        stream { .states($0) }
    }

    /// The expiry of the ID token the daemon holds, then every new token (it never carries
    /// the token itself: call ``idToken(forceRefresh:minValidity:uid:)``).
    public var idTokenChanges: AsyncThrowingStream<SesameIDTokenChange, any Error> {
        stream { .tokens($0) }
    }

    /// Every notification the daemon sends (no duplicates within one daemon instance),
    /// plus ``SesameNotification/Event/connectionLost(_:)`` and
    /// ``SesameNotification/Event/connected(_:)`` as the connection comes and goes.
    public var notifications: AsyncThrowingStream<SesameNotification, any Error> {
        stream { .notifications($0) }
    }

    /// For migrators: every pending merge, once, and each new one as it is recorded
    /// (`subscribe` with `migrator: true`, which needs the manager role; the stream throws
    /// `permission-denied` otherwise). Move the guest's data, then call
    /// ``completeMerge(mergeId:)``.
    public var merges: AsyncThrowingStream<SesameMerge, any Error> {
        stream { .merges($0) }
    }

    /// Calls `listener` with the current state, then on every change, until removed. It is
    /// called in order, one call at a time, on no particular thread: keep it short.
    @discardableResult
    public func addStateDidChangeListener(_ listener: @escaping @Sendable (SesameState) -> Void) -> ListenerHandle {
        let handle = ListenerHandle(id: UInt64.random(in: 1...UInt64.max))
        let engine = engine
        let gate = handle.gate
        Task {
            await engine.addConsumer(
                handle.id,
                .stateListener { state in
                    if gate.isOpen { listener(state) }
                })
        }
        return handle
    }

    /// Stops a listener: from the moment this returns it is not called again (a call already
    /// running finishes).
    public func removeStateDidChangeListener(_ handle: ListenerHandle) {
        handle.gate.close()
        let engine = engine
        Task { await engine.removeConsumer(handle.id) }
    }

    private func stream<Element: Sendable>(
        _ sink: (AsyncThrowingStream<Element, any Error>.Continuation) -> Consumer.Sink
    ) -> AsyncThrowingStream<Element, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Element.self)
        let id = UInt64.random(in: 1...UInt64.max)
        let engine = engine
        continuation.onTermination = { _ in
            Task { await engine.removeConsumer(id) }
        }
        let consumerSink = sink(continuation)
        Task { await engine.addConsumer(id, consumerSink) }
        return stream
    }
}
