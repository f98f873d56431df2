import SesameCore
import SesameLocalAPI

/// Streams: consumers, the one subscription, snapshots, notifications and `sequence` gaps.
extension ClientEngine {
    /// Whether any stream or listener needs a live subscription.
    var needsSubscription: Bool { !consumers.isEmpty }

    var desiredMode: SubscriptionMode {
        if consumers.values.contains(where: \.wantsMerges) { return .migrator }
        return consumers.isEmpty ? .none : .normal
    }

    // MARK: Consumers

    func addConsumer(_ id: UInt64, _ sink: Consumer.Sink) {
        var consumer = Consumer(sink: sink)
        if removedConsumers.remove(id) != nil || isShutDown {
            consumer.finish(throwing: nil)
            return
        }
        if let subscription, let stateJSON = tracker.stateJSON,
            let state = try? SesameState.decode(stateJSON, reason: .snapshot)
        {
            consumer.offer(state: state, instance: tracker.instance)
            if subscription.mode == .migrator {
                for merge in state.pendingMerges { consumer.offer(merge: merge) }
            }
        }
        consumers[id] = consumer
        if connection == nil {
            startReconnecting(afterDelay: false)
        } else {
            updateSubscription()
        }
    }

    func removeConsumer(_ id: UInt64) {
        if consumers.removeValue(forKey: id) == nil {
            removedConsumers.insert(id)
        }
        updateSubscription()
        if consumers.isEmpty {
            reconnectTask?.cancel()
            reconnectTask = nil
        }
    }

    /// Ends the consumers `matching` with `error` and forgets them.
    func finishConsumers(throwing error: SesameClientError, where matching: (Consumer) -> Bool) {
        for (id, consumer) in consumers where matching(consumer) {
            consumer.finish(throwing: error)
            consumers[id] = nil
        }
    }

    // MARK: Subscription

    /// Brings the connection's subscription to what the consumers need: subscribes first,
    /// then unsubscribes the old one, so no event falls between the two.
    func updateSubscription() {
        guard connection != nil, isGreeted, subscribing == nil else { return }
        let want = desiredMode
        guard want != (subscription?.mode ?? .none) else { return }
        guard want != .none else {
            if let subscription { sendInternal(.unsubscribe, ["subscription": subscription.id], as: .ignore) }
            subscription = nil
            return
        }
        subscribing = want
        let params: [String: JSONValue] =
            want == .migrator
            ? ["migrator": true, "events": .array(LocalAPIEvent.allCases.map { .string($0.rawValue) })] : [:]
        sendInternal(.subscribe, params, as: .subscribe(want))
    }

    func handleSubscribed(mode: SubscriptionMode, _ result: Result<JSONValue, SesameClientError>) {
        subscribing = nil
        switch result {
        case .success(let json):
            guard let id = json["subscription"], let snapshot = json["state"] else {
                dropConnection(.protocolError("a subscribe result without subscription or state"))
                return
            }
            let isFirstOnConnection = subscription == nil
            if let old = subscription { sendInternal(.unsubscribe, ["subscription": old.id], as: .ignore) }
            subscription = (id, mode)
            backoff.reset()
            // `connected` means "subscribed": from here on no event is missed.
            if isFirstOnConnection, let hello {
                publishLocal(.connected(hello), state: try? SesameState.decode(snapshot, reason: .snapshot))
            }
            processSnapshot(snapshot, reason: .snapshot)
        case .failure(let error):
            // The daemon refuses (e.g. permission-denied): end the streams that need this
            // subscription, with the daemon's error.
            finishConsumers(throwing: error) { mode == .migrator ? $0.wantsMerges : true }
        }
        updateSubscription()
    }

    /// Adopts an authoritative state (a `subscribe` snapshot or a `getState` after a gap) when
    /// it is newer than what the client has, and gives every consumer what it has not seen.
    func processSnapshot(_ json: JSONValue, reason: SesameChangeReason) {
        perform(tracker.snapshot(json, reason: reason))
    }

    func handleResync(_ result: Result<JSONValue, SesameClientError>) {
        perform(tracker.resynced(try? result.get()))
    }

    /// Does what a tracker step says: offers its states and tokens in order (with the pending
    /// merges of each state to migrators), asks for the state, or drops a lying connection.
    func perform(_ step: StreamTracker.Step) {
        if let problem = step.protocolError {
            dropConnection(.protocolError(problem))
            return
        }
        let offerMerges = subscription?.mode == .migrator
        for offer in step.offers {
            for id in consumers.keys {
                switch offer {
                case .state(let state):
                    consumers[id]!.offer(state: state, instance: tracker.instance)
                    if offerMerges {
                        for merge in state.pendingMerges { consumers[id]!.offer(merge: merge) }
                    }
                case .token(let change):
                    consumers[id]!.offer(token: change)
                }
            }
        }
        if step.resync { sendInternal(.getState, as: .resync) }
    }

    // MARK: Notifications

    func handleNotification(method: String, params: JSONValue) {
        // Unknown or malformed notifications are skipped: a newer daemon may send new ones.
        guard let notification = LocalAPINotification(method: method, params: params) else { return }
        if notification.event.advancesSequence {
            if lastRawSequence == 0 || notification.sequence > lastRawSequence {
                lastRawSequence = notification.sequence
                publish(notification, params: params)
            }
            perform(tracker.notification(notification, params: params))
        } else {
            publish(notification, params: params)
            if case .accountMerge(let wire, _) = notification {
                let merge = SesameMerge(wire)
                for id in consumers.keys { consumers[id]!.offer(merge: merge) }
            }
        }
    }

    // MARK: Raw notifications

    func publish(_ notification: LocalAPINotification, params: JSONValue) {
        guard consumers.values.contains(where: { if case .notifications = $0.sink { true } else { false } }) else {
            return
        }
        let line = LocalAPIMessage.notification(method: notification.event.rawValue, params: params).json.jsonString
        let event: SesameNotification.Event
        switch notification {
        case .authStateChanged(_, let previousUid, let reason, _):
            guard let state = try? SesameState.decode(params["state"] ?? .null) else { return }
            event = .authStateChanged(
                state: state, previousUid: previousUid, reason: SesameChangeReason(rawValue: reason))
        case .idTokenChanged(let uid, _, let sequence):
            guard let expiresAt = params["expiresAt"]?.stringValue.flatMap(WireTime.parse) else { return }
            event = .idTokenChanged(SesameIDTokenChange(uid: uid, expiresAt: expiresAt, sequence: sequence))
        case .userUpdated:
            guard let state = try? SesameState.decode(params["state"] ?? .null) else { return }
            event = .userUpdated(state: state)
        case .connectivityChanged(let connectivity, _):
            event = .connectivityChanged(SesameConnectivity(rawValue: connectivity))
        case .accountMerge(let merge, _):
            event = .accountMerge(SesameMerge(merge))
        case .shutdown(let reason, _):
            event = .shutdown(reason: reason)
        }
        let value = SesameNotification(event: event, sequence: notification.sequence, jsonLine: line)
        for consumer in consumers.values { consumer.offer(notification: value) }
    }

    func publishLocal(_ event: SesameNotification.Event, state: SesameState? = nil) {
        let value = SesameNotification(event: event, sequence: nil, jsonLine: nil, state: state)
        for consumer in consumers.values { consumer.offer(notification: value) }
    }
}
