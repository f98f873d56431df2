import Foundation

/// One reader of the client's streams, or one state listener, with what it has been given
/// so far (so it is never given the same thing twice).
struct Consumer {
    enum Sink {
        case states(AsyncThrowingStream<SesameState, any Error>.Continuation)
        case stateListener(@Sendable (SesameState) -> Void)
        case tokens(AsyncThrowingStream<SesameIDTokenChange, any Error>.Continuation)
        case notifications(AsyncThrowingStream<SesameNotification, any Error>.Continuation)
        case merges(AsyncThrowingStream<SesameMerge, any Error>.Continuation)
    }

    var sink: Sink
    /// The instance and sequence of the last state given.
    var lastState: (instance: String?, sequence: Int64)?
    /// The last token change given.
    var lastToken: SesameIDTokenChange?
    /// The merges given.
    var givenMerges: Set<String> = []

    init(sink: Sink) {
        self.sink = sink
    }

    var wantsMerges: Bool {
        if case .merges = sink { return true }
        return false
    }

    /// Gives `state` unless this consumer has seen its sequence (or a later one) from this
    /// daemon instance.
    mutating func offer(state: SesameState, instance: String?) {
        if let lastState, lastState.instance == instance, state.sequence <= lastState.sequence { return }
        switch sink {
        case .states(let continuation): continuation.yield(state)
        case .stateListener(let listener): listener(state)
        case .tokens:
            if let user = state.user, let expiresAt = state.tokenExpiresAt {
                offer(token: SesameIDTokenChange(uid: user.uid, expiresAt: expiresAt, sequence: state.sequence))
            }
        case .notifications, .merges: return
        }
        lastState = (instance, state.sequence)
    }

    /// Gives a token change unless it names the same uid and expiry as the last one.
    mutating func offer(token: SesameIDTokenChange) {
        guard case .tokens(let continuation) = sink else { return }
        if let lastToken, lastToken.uid == token.uid, lastToken.expiresAt == token.expiresAt { return }
        lastToken = token
        continuation.yield(token)
    }

    /// Gives a merge once.
    mutating func offer(merge: SesameMerge) {
        guard case .merges(let continuation) = sink, !givenMerges.contains(merge.mergeId) else { return }
        givenMerges.insert(merge.mergeId)
        continuation.yield(merge)
    }

    func offer(notification: SesameNotification) {
        if case .notifications(let continuation) = sink { continuation.yield(notification) }
    }

    /// Ends the stream, with `error` when given.
    func finish(throwing error: (any Error)?) {
        switch sink {
        case .states(let c): c.finish(throwing: error)
        case .tokens(let c): c.finish(throwing: error)
        case .notifications(let c): c.finish(throwing: error)
        case .merges(let c): c.finish(throwing: error)
        case .stateListener: break
        }
    }
}
