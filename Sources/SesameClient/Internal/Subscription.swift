import SesameLocalAPI

/// Which events the connection's one subscription asks for.
enum SubscriptionMode: Sendable, Equatable {
    case none
    /// The default events.
    case normal
    /// Every event, `accountMerge` included (`migrator: true`, managers only).
    case migrator
}

/// The connection's one subscription, and what the client knows of the daemon across
/// connections: its `hello`, the state the streams follow (``StreamTracker``) and the
/// last `sequence` given to raw-notification readers.
///
/// A pure value: it says which `subscribe` or `unsubscribe` to send; ``ClientEngine`` sends
/// them.
struct Subscription {
    /// A request the subscription needs sent.
    enum Request: Equatable {
        case subscribe(SubscriptionMode, params: [String: JSONValue])
        case unsubscribe(id: JSONValue)
    }

    /// The daemon's last `hello` answer; nil before it or with an old daemon.
    private(set) var hello: SesameHello?
    /// Whether this connection's `hello` was answered (subscribing waits for it, so the
    /// instance is known before any snapshot).
    private(set) var isGreeted = false
    /// The subscription the daemon confirmed on this connection.
    private(set) var current: (id: JSONValue, mode: SubscriptionMode)?
    /// A `subscribe` sent and not answered yet.
    private(set) var subscribing: SubscriptionMode?
    /// The state the streams follow.
    var tracker = StreamTracker()
    /// The `sequence` of the last raw notification given (0: none yet from this instance).
    private var lastRawSequence: Int64 = 0

    /// The connection is gone: its subscription with it.
    mutating func connectionLost() {
        current = nil
        subscribing = nil
        isGreeted = false
        tracker.connectionLost()
    }

    /// The connection's `hello` was answered; nil when the answer was not a hello (an old or
    /// odd daemon: no instance tracking).
    mutating func greeted(_ newHello: SesameHello?) {
        isGreeted = true
        guard let newHello else { return }
        if newHello.instance != tracker.instance { lastRawSequence = 0 }
        tracker.connected(instance: newHello.instance)
        hello = newHello
    }

    /// The requests that bring the subscription to `want`: a new subscription is asked for
    /// first and the old one dropped when it is confirmed (``subscribed(_:id:)``), so no
    /// event falls between the two. Nothing while not greeted or while a `subscribe` is out.
    mutating func update(to want: SubscriptionMode) -> Request? {
        guard isGreeted, subscribing == nil, want != (current?.mode ?? .none) else { return nil }
        guard want != .none else {
            defer { current = nil }
            return current.map { .unsubscribe(id: $0.id) }
        }
        subscribing = want
        let params: [String: JSONValue] =
            want == .migrator
            ? ["migrator": true, "events": .array(LocalAPIEvent.allCases.map { .string($0.rawValue) })] : [:]
        return .subscribe(want, params: params)
    }

    /// The daemon confirmed a subscription as `id`. Returns the old one to drop, and whether
    /// this is the connection's first (the client is now "connected": no event is missed).
    mutating func subscribed(_ mode: SubscriptionMode, id: JSONValue) -> (drop: JSONValue?, isFirst: Bool) {
        subscribing = nil
        let old = current
        current = (id, mode)
        return (old?.id, old == nil)
    }

    /// The daemon refused a `subscribe`.
    mutating func refused() {
        subscribing = nil
    }

    /// Whether a raw notification with `sequence` is new to its readers (no duplicates within
    /// one daemon instance); records it.
    mutating func isNewRaw(_ sequence: Int64) -> Bool {
        guard lastRawSequence == 0 || sequence > lastRawSequence else { return false }
        lastRawSequence = sequence
        return true
    }
}
