import SesameLocalAPI

/// The client's view of the daemon's state, as a pure value: told what arrived (a `hello`, a
/// snapshot, a notification, a `getState` answer), it answers what to give the consumers and
/// whether to read the state again. ``ClientEngine`` performs the I/O.
///
/// Rules (docs/protocol.md, "Writing a client"; the table in tests/fixtures/stream-tracker.json,
/// which the Node and Python trackers run too): the snapshot comes first; state notifications
/// apply in `sequence` order, each to the state before it; one already seen is dropped; a gap
/// asks for `getState` and holds what follows until the answer (a failed answer accepts the gap);
/// a new daemon instance starts over with its snapshot, whatever its `sequence`.
struct StreamTracker {
    /// The daemon instance the state belongs to (`hello.instance`); nil with an old daemon.
    private(set) var instance: String?
    /// The newest state, with the reason it changed.
    private(set) var state: SesameState?
    /// Its `sequence`; 0 before the first snapshot.
    private(set) var lastSequence: Int64 = 0
    private var resyncing = false
    private var held: [LocalAPINotification] = []

    /// What a step gives.
    struct Step {
        /// One thing to offer every consumer (each consumer drops what it has seen).
        enum Offer {
            case state(SesameState)
            case token(SesameIDTokenChange)
        }

        /// What to offer, in order.
        var offers: [Offer] = []
        /// Whether to send a `getState` now (its answer goes to ``resynced(_:)``).
        var resync = false
        /// A state the daemon should never send; the connection is to be dropped.
        var protocolError: String?
    }

    /// A connection's `hello` was answered: a new instance starts over. Any repair under way
    /// on the old connection is dropped.
    mutating func connected(instance newInstance: String?) {
        connectionLost()
        guard let newInstance, newInstance != instance else { return }
        instance = newInstance
        lastSequence = 0
        state = nil
    }

    /// The connection ended: a `getState` under way will not be answered.
    mutating func connectionLost() {
        resyncing = false
        held = []
    }

    /// An authoritative state (a `subscribe` snapshot): adopted when newer than what the client
    /// has, and the current state offered.
    mutating func snapshot(_ json: JSONValue, reason: SesameChangeReason) -> Step {
        guard let candidate = SesameState(json: json) else {
            return Step(protocolError: "a State without status or sequence")
        }
        if lastSequence == 0 || candidate.sequence > lastSequence || state == nil {
            state = candidate
            lastSequence = candidate.sequence
        }
        guard var current = state else { return Step() }
        current.changeReason = reason
        state = current
        return Step(offers: [.state(current)])
    }

    /// A state notification (one whose event advances `sequence`).
    mutating func notification(_ notification: LocalAPINotification) -> Step {
        var step = Step()
        process(notification, into: &step)
        return step
    }

    /// The answer to the `getState` a step asked for; nil when that call failed.
    mutating func resynced(_ json: JSONValue?) -> Step {
        resyncing = false
        let waiting = held
        held = []
        var step = Step()
        if let json {
            step = snapshot(json, reason: .resynchronized)
            if step.protocolError != nil { return step }
        } else if let first = waiting.first {
            // Could not read the state: accept the gap rather than stall.
            lastSequence = first.sequence - 1
        }
        for notification in waiting {
            process(notification, into: &step)
        }
        return step
    }

    private mutating func process(_ notification: LocalAPINotification, into step: inout Step) {
        if resyncing {
            held.append(notification)
            return
        }
        if lastSequence != 0 {
            if notification.sequence <= lastSequence { return }
            if notification.sequence > lastSequence + 1 {
                resyncing = true
                held.append(notification)
                step.resync = true
                return
            }
        }
        apply(notification, into: &step)
    }

    private mutating func apply(_ notification: LocalAPINotification, into step: inout Step) {
        var next: SesameState?
        switch notification {
        case .authStateChanged(let changed, _, let reason, _):
            next = changed
            next?.changeReason = SesameChangeReason(rawValue: reason)
        case .userUpdated(let changed, _):
            next = changed
            next?.changeReason = .userUpdated
        case .idTokenChanged(let uid, let expiresAtText, let sequence):
            let expiresAt = WireTime.parse(expiresAtText)
            next = state
            next?.tokenExpiresAt = expiresAt
            next?.changeReason = .tokenRefreshed
            if let expiresAt {
                step.offers.append(.token(SesameIDTokenChange(uid: uid, expiresAt: expiresAt, sequence: sequence)))
            }
        case .connectivityChanged(let connectivity, let rateLimit, _):
            next = state
            next?.connectivity = SesameConnectivity(rawValue: connectivity)
            next?.rateLimit = rateLimit
            next?.changeReason = .connectivityChanged
        case .signInFlowChanged(_, let changed, _):
            next = changed
            next?.changeReason = .signInFlowChanged
        case .accountMerge, .shutdown, .accessRequestsChanged:
            return
        }
        lastSequence = notification.sequence
        guard var changed = next else { return }
        changed.sequence = notification.sequence
        state = changed
        step.offers.append(.state(changed))
    }
}
