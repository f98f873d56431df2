import SesameLocalAPI

/// The readers of the client's streams and the state listeners, keyed by id, each with what
/// it has been given (``Consumer``).
///
/// A stream may end before its `add` arrives (its task ran first): its id is then remembered
/// as removed, and the late `add` finishes it at once.
struct Consumers {
    private var members: [UInt64: Consumer] = [:]
    private var removedEarly: Set<UInt64> = []

    var isEmpty: Bool { members.isEmpty }

    /// Which subscription the consumers need.
    var desiredMode: SubscriptionMode {
        if members.values.contains(where: \.wantsMerges) { return .migrator }
        return members.isEmpty ? .none : .normal
    }

    /// Whether any consumer reads raw notifications.
    var wantsNotifications: Bool {
        members.values.contains { if case .notifications = $0.sink { true } else { false } }
    }

    /// Adds `consumer` under `id` and gives it `current` (with its pending merges when
    /// `withMerges`), as every consumer was given the state when it came; false (and the
    /// consumer finished) when `id` was removed already.
    mutating func add(
        _ id: UInt64, _ consumer: Consumer, current: SesameState?, instance: String?, withMerges: Bool
    ) -> Bool {
        var consumer = consumer
        if removedEarly.remove(id) != nil {
            consumer.finish(throwing: nil)
            return false
        }
        if let current {
            consumer.offer(state: current, instance: instance)
            if withMerges {
                for merge in current.pendingMerges { consumer.offer(merge: merge) }
            }
        }
        members[id] = consumer
        return true
    }

    /// Forgets `id`; one not added yet is remembered, so its `add` finishes it.
    mutating func remove(_ id: UInt64) {
        if members.removeValue(forKey: id) == nil { removedEarly.insert(id) }
    }

    /// Offers a state (and its pending merges to migrators when `withMerges`) to every consumer.
    mutating func offer(state: SesameState, instance: String?, withMerges: Bool) {
        for id in members.keys {
            members[id]!.offer(state: state, instance: instance)
            if withMerges {
                for merge in state.pendingMerges { members[id]!.offer(merge: merge) }
            }
        }
    }

    mutating func offer(token: SesameIDTokenChange) {
        for id in members.keys { members[id]!.offer(token: token) }
    }

    mutating func offer(merge: SesameMerge) {
        for id in members.keys { members[id]!.offer(merge: merge) }
    }

    func offer(notification: SesameNotification) {
        for consumer in members.values { consumer.offer(notification: notification) }
    }

    /// Ends the consumers `matching` with `error` and forgets them.
    mutating func finish(throwing error: (any Error)?, where matching: (Consumer) -> Bool = { _ in true }) {
        for (id, consumer) in members where matching(consumer) {
            consumer.finish(throwing: error)
            members[id] = nil
        }
    }
}
