import SesameCore
import SesameLocalAPI

/// Streams: consumers, the one subscription, snapshots, notifications and `sequence` gaps.
extension ClientEngine {
    // MARK: Consumers

    func addConsumer(_ id: UInt64, _ sink: Consumer.Sink) {
        let consumer = Consumer(sink: sink)
        if isShutDown {
            consumer.finish(throwing: nil)
            return
        }
        // A consumer that comes while subscribed starts from the current state.
        let mode = subscription.current?.mode
        let current = mode == nil ? nil : subscription.tracker.state?.with(reason: .snapshot)
        let added = consumers.add(
            id, consumer, current: current, instance: subscription.tracker.instance, withMerges: mode == .migrator)
        guard added else { return }
        if link.connection == nil {
            startReconnecting(afterDelay: false)
        } else {
            updateSubscription()
        }
    }

    func removeConsumer(_ id: UInt64) {
        consumers.remove(id)
        updateSubscription()
        if consumers.isEmpty { link.stopReconnecting() }
    }

    // MARK: Subscription

    /// Brings the connection's subscription to what the consumers need.
    func updateSubscription() {
        guard link.connection != nil else { return }
        switch subscription.update(to: consumers.desiredMode) {
        case nil:
            break
        case .subscribe(let mode, let params)?:
            sendInternal(.subscribe, params, as: .subscribe(mode))
        case .unsubscribe(let id)?:
            sendInternal(.unsubscribe, ["subscription": id], as: .ignore)
        }
    }

    func handleSubscribed(mode: SubscriptionMode, _ result: Result<JSONValue, SesameClientError>) {
        switch result {
        case .success(let json):
            guard let id = json["subscription"], let snapshot = json["state"] else {
                subscription.refused()
                dropConnection(.protocolError("a subscribe result without subscription or state"))
                return
            }
            let (old, isFirst) = subscription.subscribed(mode, id: id)
            if let old { sendInternal(.unsubscribe, ["subscription": old], as: .ignore) }
            link.backoff.reset()
            // `connected` means "subscribed": from here on no event is missed.
            if isFirst, let hello = subscription.hello {
                publishLocal(.connected(hello), state: try? SesameState.decode(snapshot, reason: .snapshot))
            }
            perform(subscription.tracker.snapshot(snapshot, reason: .snapshot))
        case .failure(let error):
            subscription.refused()
            // The daemon refuses (e.g. permission-denied): end the streams that need this
            // subscription, with the daemon's error.
            consumers.finish(throwing: error) { mode == .migrator ? $0.wantsMerges : true }
        }
        updateSubscription()
    }

    /// Does what a tracker step says: offers its states and tokens in order (with the pending
    /// merges of each state to migrators), asks for the state, or drops a lying connection.
    func perform(_ step: StreamTracker.Step) {
        if let problem = step.protocolError {
            dropConnection(.protocolError(problem))
            return
        }
        let withMerges = subscription.current?.mode == .migrator
        for offer in step.offers {
            switch offer {
            case .state(let state):
                consumers.offer(state: state, instance: subscription.tracker.instance, withMerges: withMerges)
            case .token(let change):
                consumers.offer(token: change)
            }
        }
        if step.resync { sendInternal(.getState, as: .resync) }
    }

    // MARK: Notifications

    func handleNotification(method: String, params: JSONValue) {
        // Unknown or malformed notifications are skipped: a newer daemon may send new ones.
        guard let notification = LocalAPINotification(method: method, params: params) else { return }
        if notification.event.advancesSequence {
            if subscription.isNewRaw(notification.sequence) { publish(notification, params: params) }
            perform(subscription.tracker.notification(notification))
        } else {
            publish(notification, params: params)
            if case .accountMerge(let merge, _) = notification { consumers.offer(merge: merge) }
        }
    }

    // MARK: Raw notifications

    func publish(_ notification: LocalAPINotification, params: JSONValue) {
        guard consumers.wantsNotifications else { return }
        let line = LocalAPIMessage.notification(method: notification.event.rawValue, params: params).json.jsonString
        let event: SesameNotification.Event
        switch notification {
        case .authStateChanged(let state, let previousUid, let reason, _):
            event = .authStateChanged(
                state: state, previousUid: previousUid, reason: SesameChangeReason(rawValue: reason))
        case .idTokenChanged(let uid, let expiresAtText, let sequence):
            guard let expiresAt = WireTime.parse(expiresAtText) else { return }
            event = .idTokenChanged(SesameIDTokenChange(uid: uid, expiresAt: expiresAt, sequence: sequence))
        case .userUpdated(let state, _):
            event = .userUpdated(state: state)
        case .connectivityChanged(let connectivity, _, _):
            event = .connectivityChanged(SesameConnectivity(rawValue: connectivity))
        case .accountMerge(let merge, _):
            event = .accountMerge(merge)
        case .shutdown(let reason, _):
            event = .shutdown(reason: reason)
        case .signInFlowChanged(let flow, let state, _):
            event = .signInFlowChanged(flow: flow, state: state)
        case .accessRequestsChanged(let requests, _):
            event = .accessRequestsChanged(requests)
        }
        consumers.offer(notification: SesameNotification(event: event, sequence: notification.sequence, jsonLine: line))
    }

    func publishLocal(_ event: SesameNotification.Event, state: SesameState? = nil) {
        consumers.offer(notification: SesameNotification(event: event, sequence: nil, jsonLine: nil, state: state))
    }
}
