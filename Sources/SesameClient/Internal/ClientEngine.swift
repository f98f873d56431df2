import NIOCore
import NIOPosix
import SesameCore
import SesameLocalAPI

/// The one owner of a client's connection: requests and their responses, the subscription,
/// sequence tracking and reconnection. Every mutable field is isolated to this actor, and
/// the lines of one connection are handled one at a time, in arrival order.
///
/// Invariants:
/// - `connection` is nil exactly when no connection is usable; `generation` grows with every
///   connection, and events of an older one are ignored.
/// - Every id in `pending` is either in `inFlight` (sent, unanswered) or in `queued` (waiting
///   for one of the 64 in-flight slots). Cancelled calls leave `pending` at once; their slot
///   frees when the daemon answers.
/// - Within one daemon instance, no consumer is given a state whose `sequence` it has
///   already seen.
actor ClientEngine {
    /// What a request id waits for.
    enum Pending {
        /// A caller's request.
        case call(CheckedContinuation<JSONValue, any Error>)
        /// The `hello` sent on connecting.
        case hello
        /// A `subscribe` for `mode`.
        case subscribe(SubscriptionMode)
        /// A `getState` after a gap in `sequence`.
        case resync
        /// An answer nobody waits for (`unsubscribe`).
        case ignore
    }

    /// Which events the connection's one subscription asks for.
    enum SubscriptionMode: Sendable, Equatable {
        case none
        /// The default events.
        case normal
        /// Every event, `accountMerge` included (`migrator: true`, managers only).
        case migrator
    }

    /// The pauses between reconnection attempts: 50 ms doubling to 2 s, with jitter.
    static let reconnectBackoff = Backoff(initial: .milliseconds(50), maximum: .seconds(2))

    let socketPath: String
    let clientName: String
    let group: any EventLoopGroup
    let maximumRequestsInFlight: Int

    // Connection.
    var connection: LineConnection?
    var generation: UInt64 = 0
    var connecting: Task<LineConnection, any Error>?
    var reconnectTask: Task<Void, Never>?
    var backoff = ClientEngine.reconnectBackoff
    var isShutDown = false

    // Requests.
    var nextRequestID: Int64 = 1
    var pending: [Int64: Pending] = [:]
    var inFlight: Set<Int64> = []
    var queued: [(id: Int64, line: [UInt8])] = []

    // Daemon instance and state.
    var hello: SesameHello?
    /// Whether this connection's `hello` was answered (subscriptions wait for it, so the
    /// instance is known before any snapshot).
    var isGreeted = false
    var subscription: (id: JSONValue, mode: SubscriptionMode)?
    var subscribing: SubscriptionMode?
    /// The state the streams follow (a pure value; this actor performs what it says).
    var tracker = StreamTracker()
    var lastRawSequence: Int64 = 0

    // Consumers of the streams.
    var consumers: [UInt64: Consumer] = [:]
    var removedConsumers: Set<UInt64> = []

    init(socketPath: String, clientName: String, group: any EventLoopGroup, maximumRequestsInFlight: Int) {
        self.socketPath = socketPath
        self.clientName = clientName
        self.group = group
        self.maximumRequestsInFlight = maximumRequestsInFlight
    }

    // MARK: Calls

    /// Sends one request and waits for its answer.
    /// - Throws: ``SesameClientError`` or `CancellationError` (the answer is then dropped).
    func call(_ method: String, _ params: [String: JSONValue] = [:]) async throws -> JSONValue {
        try Task.checkCancellation()
        try await ensureConnected()
        let id = allocateID()
        let line = LocalAPIRequest(id: .integer(id), method: method, params: params).encoded()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<JSONValue, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else if isShutDown || connection == nil {
                    continuation.resume(throwing: SesameClientError.connectionClosed)
                } else {
                    pending[id] = .call(continuation)
                    enqueue(id: id, line: line)
                }
            }
        } onCancel: {
            Task { await self.cancel(id) }
        }
    }

    /// Drops the caller of `id`; its answer, if it comes, is ignored.
    func cancel(_ id: Int64) {
        queued.removeAll { $0.id == id }
        if case .call(let continuation)? = pending.removeValue(forKey: id) {
            continuation.resume(throwing: CancellationError())
        }
    }

    func allocateID() -> Int64 {
        defer { nextRequestID += 1 }
        return nextRequestID
    }

    /// Sends an internal request on the current connection.
    func sendInternal(_ method: LocalAPIMethod, _ params: [String: JSONValue] = [:], as kind: Pending) {
        guard connection != nil else { return }
        let id = allocateID()
        pending[id] = kind
        enqueue(id: id, line: LocalAPIRequest(id: .integer(id), method: method.rawValue, params: params).encoded())
    }

    /// Sends at once when fewer than the limit are in flight, else queues.
    func enqueue(id: Int64, line: [UInt8]) {
        if inFlight.count < maximumRequestsInFlight, let connection {
            inFlight.insert(id)
            connection.send(line)
        } else {
            queued.append((id, line))
        }
    }

    func sendQueued() {
        while inFlight.count < maximumRequestsInFlight, !queued.isEmpty, let connection {
            let next = queued.removeFirst()
            inFlight.insert(next.id)
            connection.send(next.line)
        }
    }

    // MARK: Lines

    func handle(_ event: ConnectionEvent, generation eventGeneration: UInt64) {
        guard eventGeneration == generation else { return }
        switch event {
        case .closed(let detail):
            dropConnection(detail.map { .protocolError($0) } ?? .connectionClosed)
        case .line(let bytes):
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
            let message: LocalAPIMessage
            do {
                message = try LocalAPIMessage.decode(line: bytes)
            } catch {
                dropConnection(.protocolError(error.message))
                return
            }
            switch message {
            case .success(let id, let result): handleAnswer(id, .success(result))
            case .failure(let id, let error): handleAnswer(id, .failure(SesameClientError(error)))
            case .notification(let method, let params): handleNotification(method: method, params: params)
            }
        }
    }

    func handleAnswer(_ rawID: LocalAPIRequestID, _ result: Result<JSONValue, SesameClientError>) {
        guard case .integer(let id) = rawID else {
            // An error with id null (e.g. too-many-connections) concerns the whole connection.
            if case .failure(let error) = result {
                let callers = pending.filter { if case .call = $0.value { true } else { false } }
                for (id, kind) in callers {
                    pending[id] = nil
                    queued.removeAll { $0.id == id }
                    if case .call(let continuation) = kind { continuation.resume(throwing: error) }
                }
            }
            return
        }
        inFlight.remove(id)
        let kind = pending.removeValue(forKey: id)
        sendQueued()
        switch kind {
        case nil, .ignore?:
            break
        case .call(let continuation)?:
            continuation.resume(with: result)
        case .hello?:
            handleHello(result)
        case .subscribe(let mode)?:
            handleSubscribed(mode: mode, result)
        case .resync?:
            handleResync(result)
        }
    }

    func handleHello(_ result: Result<JSONValue, SesameClientError>) {
        isGreeted = true
        guard case .success(let json) = result, let newHello = try? SesameHello.decode(json) else {
            // An old or odd daemon: go on without instance tracking.
            updateSubscription()
            return
        }
        if newHello.instance != tracker.instance { lastRawSequence = 0 }
        tracker.connected(instance: newHello.instance)
        hello = newHello
        updateSubscription()
    }
}
