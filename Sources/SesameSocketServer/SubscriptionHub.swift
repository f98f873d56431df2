import Foundation
import NIOConcurrencyHelpers
import NIOCore
import SesameCore
import SesameLocalAPI
import SesameService

/// The fan-out point between the session and every connection.
///
/// It keeps the latest state and sequence, and the subscriptions. The session service calls
/// ``publish(_:)`` in the actor turn that changes the state (``SessionService/publish(to:)``):
/// each event is encoded once and queued to every interested connection under one lock before
/// the service goes on, so a request's answer, sent after the service returns, always follows
/// the notifications the request caused. `subscribe` registers and queues its response under
/// that same lock, so a subscriber's snapshot and the notifications after it are always in
/// order and never overlap.
final class SubscriptionHub: Sendable {
    struct Subscriber {
        var output: ConnectionOutput
        /// What the connection may see of a sign-in flow (``FlowVisibility``) and of access
        /// requests; raised or lowered by grants (``updateRole(of:to:)``).
        var role: LocalAPIRole
        /// Subscription id → the events it asked for.
        private(set) var subscriptions: [String: Set<LocalAPIEvent>] = [:]
        var migrator = false
        /// Every event one of the subscriptions asked for: kept with them, as every
        /// notification reads it for every subscriber.
        private(set) var events: Set<LocalAPIEvent> = []

        init(output: ConnectionOutput, role: LocalAPIRole) {
            self.output = output
            self.role = role
        }

        mutating func add(_ id: String, events wanted: Set<LocalAPIEvent>, migrator: Bool) {
            subscriptions[id] = wanted
            events.formUnion(wanted)
            self.migrator = self.migrator || migrator
        }

        /// False when there is no such subscription.
        mutating func remove(_ id: String) -> Bool {
            guard subscriptions.removeValue(forKey: id) != nil else { return false }
            events = subscriptions.values.reduce(into: []) { $0.formUnion($1) }
            return true
        }
    }

    struct Snapshot: Sendable {
        /// Its dates on the calendar as it read when the event was made (`calendarOffset`).
        var state: AuthState
        var sequence: Int64
        /// The current ID token, its dates on the daemon's steady timeline (for deciding its
        /// freshness); only ever sent in a `getIdToken` answer, shown on the calendar.
        var token: IDToken?
        /// How far the calendar was ahead of the daemon's timeline when `state` was made.
        var calendarOffset: TimeInterval = 0

        /// The snapshot with `state`'s dates as the calendar reads them at `offset` (the
        /// calendar jumped since the event: ``SteadyClock``).
        func onCalendar(_ offset: TimeInterval) -> Snapshot {
            guard offset != calendarOffset else { return self }
            var shifted = self
            shifted.state = state.onCalendar(offset - calendarOffset)
            shifted.calendarOffset = offset
            return shifted
        }
        var wire: WireState { state.wire(sequence: sequence) }
        /// The state as `role` sees it, with the open access requests for managers.
        func wire(for role: LocalAPIRole, accessRequests: [SesameAccessRequest] = []) -> WireState {
            var wire = state.visible(to: role).wire(sequence: sequence)
            if role >= .manager { wire.accessRequests = accessRequests }
            return wire
        }
    }

    private struct Guarded {
        var snapshot: Snapshot
        /// The answers for `snapshot`, once a request asked for them.
        var answers: SessionAnswers?
        /// Counts published snapshots, so answers made for an older one are not kept.
        var generation = 0
        /// The last token answer made (reused while the token does not change).
        var tokenAnswer: SessionAnswers.TokenAnswer?
        var subscribers: [ObjectIdentifier: Subscriber] = [:]
        var nextSubscription = 0
        /// The open access requests (``AccessRequests``), which managers see in the state.
        var accessRequests: [SesameAccessRequest] = []
    }

    private let guarded: NIOLockedValueBox<Guarded>
    /// Connections flushed by one event loop task during a fan-out.
    private let flushChunk: Int
    /// The service's ``LocalAPIService/calendarOffset``, read when the calendar was set
    /// (``calendarChanged()``), never per request.
    private let calendarOffset: @Sendable () -> TimeInterval

    /// Empty (`starting`) until the first event, the service's snapshot, is published.
    init(flushChunk: Int, calendarOffset: @escaping @Sendable () -> TimeInterval = { 0 }) {
        self.flushChunk = flushChunk
        self.calendarOffset = calendarOffset
        let starting = AuthState(
            status: .starting, user: nil, tokenExpiresAt: nil, connectivity: .online, needsUsername: false,
            pendingMerges: [], sequence: 1)
        guarded = NIOLockedValueBox(Guarded(snapshot: Snapshot(state: starting, sequence: 1, token: nil)))
    }

    var snapshot: Snapshot { guarded.withLockedValue { $0.snapshot } }

    /// The answers for the latest published state: serialised by the first request after a
    /// change (outside the lock), then shared by every request until the next change.
    var answers: SessionAnswers {
        if let cached = guarded.withLockedValue({ $0.answers }) { return cached }
        let (snapshot, generation, tokenAnswer, requests) = guarded.withLockedValue {
            ($0.snapshot, $0.generation, $0.tokenAnswer, $0.accessRequests)
        }
        let answers = SessionAnswers(snapshot: snapshot, accessRequests: requests, reusing: tokenAnswer)
        guarded.withLockedValue { guarded in
            guard guarded.generation == generation else { return }
            guarded.answers = answers
            // Only ever the held token: none is kept past a sign-out.
            guarded.tokenAnswer = answers.token
        }
        return answers
    }

    /// Records the state after the event and queues the notification to every subscriber that
    /// asked for it. Called by the session service, in event order, inside the actor turn that
    /// made the change; it does not block (the flushes go to the event loops). An event that
    /// shows a device flow's code is encoded twice: readers and observers get it without.
    func publish(_ event: SessionEvent) {
        let requests = guarded.withLockedValue { $0.accessRequests }
        let notification = SessionEventWire.notification(for: event, shownTo: .manager, accessRequests: requests)
        let line = notification?.message.encoded()
        let restricted =
            event.carriesSignInCode || !requests.isEmpty
            ? SessionEventWire.notification(for: event, shownTo: .observer)?.message.encoded() : line
        guarded.withLockedValue { guarded in
            guarded.snapshot = Snapshot(
                state: event.state, sequence: event.sequence, token: event.currentToken,
                calendarOffset: event.calendarOffset)
            guarded.answers = nil
            guarded.generation += 1
            if let notification, let line, let restricted {
                Self.deliver(
                    Lines(full: line, restricted: restricted), of: notification.event, to: guarded.subscribers,
                    chunkSize: flushChunk)
            }
        }
    }

    /// The calendar was set (the daemon hears it from the kernel): the published state's dates
    /// and the cached answers are shown on the calendar as it reads now, at once, whether or
    /// not the service has anything to tell its subscribers.
    func calendarChanged() {
        let offset = calendarOffset()
        guarded.withLockedValue { guarded in
            guard guarded.snapshot.calendarOffset != offset else { return }
            guarded.snapshot = guarded.snapshot.onCalendar(offset)
            guarded.answers = nil
            guarded.generation += 1
        }
    }

    /// One notification as managers and as the other roles see it (often the same bytes).
    private struct Lines {
        var full: [UInt8]
        var restricted: [UInt8]
    }

    private static func deliver(
        _ lines: Lines, of event: LocalAPIEvent, to subscribers: [ObjectIdentifier: Subscriber], chunkSize: Int
    ) {
        // Lines go into every outbox now, in order; the flushes go to each event loop as one
        // task per chunk of its connections, not a task per connection. A chunk is flushed
        // as soon as it is full, so the first subscribers are written to while the rest are
        // still being queued.
        var flushes: [ObjectIdentifier: (loop: any EventLoop, outputs: [ConnectionOutput])] = [:]
        func flush(_ loop: any EventLoop, _ outputs: [ConnectionOutput]) {
            loop.execute { for output in outputs { output.flushQueued() } }
        }
        for subscriber in subscribers.values {
            let wanted: Bool
            switch event {
            case .accountMerge: wanted = subscriber.migrator
            case .shutdown: wanted = true
            case .accessRequestsChanged: wanted = subscriber.role >= .manager && subscriber.events.contains(event)
            default: wanted = subscriber.events.contains(event)
            }
            let line = subscriber.role.seesSignInCode ? lines.full : lines.restricted
            guard wanted, subscriber.output.enqueue(line) else { continue }
            let loop = subscriber.output.channel.eventLoop
            let key = ObjectIdentifier(loop)
            flushes[key, default: (loop, [])].outputs.append(subscriber.output)
            if let chunk = flushes[key], chunk.outputs.count >= chunkSize {
                flushes[key] = nil
                flush(loop, chunk.outputs)
            }
        }
        for (loop, outputs) in flushes.values { flush(loop, outputs) }
    }

    /// Registers a subscription and queues its response (and, for migrators, one
    /// `accountMerge` per pending merge) before any later notification. False, and nothing
    /// queued, when the connection holds ``ProtocolLimits/maximumSubscriptionsPerConnection``.
    /// The subscriber is changed in place: no copy of its subscriptions under the lock.
    func subscribe(
        output: ConnectionOutput, role: LocalAPIRole, requestID: [UInt8], events: Set<LocalAPIEvent>, migrator: Bool
    ) -> Bool {
        guarded.withLockedValue { guarded in
            if let existing = guarded.subscribers[output.id],
                existing.subscriptions.count >= ProtocolLimits.maximumSubscriptionsPerConnection
            {
                return false
            }
            guarded.nextSubscription += 1
            let id = "s\(guarded.nextSubscription)"
            guarded.subscribers[output.id, default: Subscriber(output: output, role: role)].add(
                id, events: events, migrator: migrator)
            let snapshot = guarded.snapshot
            let state = snapshot.wire(for: role, accessRequests: guarded.accessRequests)
            let result: JSONValue = .object([
                "subscription": .string(id), "state": .object(state.json.objectValue ?? [:]),
            ])
            output.send(SplicedResponse.success(result), id: requestID)
            if migrator {
                for merge in snapshot.state.pendingMerges {
                    output.send(
                        notification: LocalAPINotification.accountMerge(merge: merge.wire, sequence: snapshot.sequence)
                            .message.encoded())
                }
            }
            return true
        }
    }

    /// The open access requests changed: managers' states show them from now on, and the
    /// managers that subscribed to `accessRequestsChanged` are told, with the current sequence.
    func publishAccessRequests(_ requests: [SesameAccessRequest]) {
        guarded.withLockedValue { guarded in
            guarded.accessRequests = requests
            guarded.answers = nil
            guarded.generation += 1
            let notification = LocalAPINotification.accessRequestsChanged(
                accessRequests: requests, sequence: guarded.snapshot.sequence)
            let line = notification.message.encoded()
            Self.deliver(
                Lines(full: line, restricted: line), of: .accessRequestsChanged, to: guarded.subscribers,
                chunkSize: flushChunk)
        }
    }

    /// A connection's role changed (a grant, or its revocation): what its subscriptions show
    /// follows; below observer it has none.
    func updateRole(of output: ConnectionOutput, to role: LocalAPIRole) {
        guarded.withLockedValue { guarded in
            guard guarded.subscribers[output.id] != nil else { return }
            if role < .observer {
                guarded.subscribers[output.id] = nil
            } else {
                guarded.subscribers[output.id]?.role = role
            }
        }
    }

    /// Removes a subscription of this connection; false when it has no such subscription.
    func unsubscribe(output: ConnectionOutput, subscription: String) -> Bool {
        guarded.withLockedValue { guarded in
            guard guarded.subscribers[output.id]?.remove(subscription) == true else { return false }
            if guarded.subscribers[output.id]?.subscriptions.isEmpty == true {
                guarded.subscribers[output.id] = nil
            }
            return true
        }
    }

    /// Forgets everything of a closed connection.
    func remove(_ output: ConnectionOutput) {
        _ = guarded.withLockedValue { $0.subscribers.removeValue(forKey: output.id) }
    }

    func isSubscriber(_ output: ConnectionOutput) -> Bool {
        guarded.withLockedValue { $0.subscribers[output.id] != nil }
    }

    var subscriberCount: Int { guarded.withLockedValue { $0.subscribers.count } }
}
