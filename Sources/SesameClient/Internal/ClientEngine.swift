import NIOCore
import NIOPosix
import SesameCore
import SesameLocalAPI

/// The one actor of a client: it serializes its owners and performs what they say. Each field
/// belongs to one owner: ``Link`` (the connection, the shared connection attempt and
/// reconnection), ``PendingCalls`` (request ids, answers and the in-flight cap),
/// ``Subscription`` (the one subscription, the daemon's `hello` and the tracked state) and
/// ``Consumers`` (the streams and listeners). The lines of one connection are handled one at
/// a time, in arrival order.
///
/// Within one daemon instance, no consumer is given a state whose `sequence` it has already
/// seen.
actor ClientEngine {
    let socketPath: String
    let clientName: String
    let group: any EventLoopGroup

    var link = Link()
    var calls: PendingCalls
    var subscription = Subscription()
    var consumers = Consumers()
    var isShutDown = false

    init(socketPath: String, clientName: String, group: any EventLoopGroup, maximumRequestsInFlight: Int) {
        self.socketPath = socketPath
        self.clientName = clientName
        self.group = group
        self.calls = PendingCalls(maximumInFlight: maximumRequestsInFlight)
    }

    // MARK: Calls

    /// Sends one request and waits for its answer.
    /// - Throws: ``SesameClientError`` or `CancellationError` (the answer is then dropped).
    func call(_ method: String, _ params: [String: JSONValue] = [:]) async throws -> JSONValue {
        try Task.checkCancellation()
        try await ensureConnected()
        let id = calls.allocateID()
        let line = LocalAPIRequest(id: .integer(id), method: method, params: params).encoded()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<JSONValue, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else if isShutDown || link.connection == nil {
                    continuation.resume(throwing: SesameClientError.connectionClosed)
                } else {
                    send(calls.add(id, .call(continuation), line: line))
                }
            }
        } onCancel: {
            Task { await self.cancel(id) }
        }
    }

    /// Drops the caller of `id`; its answer, if it comes, is ignored.
    func cancel(_ id: Int64) {
        if case .call(let continuation)? = calls.cancel(id) {
            continuation.resume(throwing: CancellationError())
        }
    }

    /// Sends an internal request on the current connection.
    func sendInternal(_ method: LocalAPIMethod, _ params: [String: JSONValue] = [:], as kind: PendingCalls.Kind) {
        guard link.connection != nil else { return }
        let id = calls.allocateID()
        send(
            calls.add(
                id, kind, line: LocalAPIRequest(id: .integer(id), method: method.rawValue, params: params).encoded()))
    }

    /// Writes `line` on the current connection (nothing for nil: the request was queued).
    func send(_ line: [UInt8]?) {
        guard let line, let connection = link.connection else { return }
        connection.send(line)
    }

    // MARK: Lines

    func handle(_ event: ConnectionEvent, generation: UInt64) {
        guard generation == link.generation else { return }
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
                for caller in calls.removeCallers() { caller.resume(throwing: error) }
            }
            return
        }
        let (kind, release) = calls.answered(id)
        for line in release { send(line) }
        switch kind {
        case nil, .ignore?:
            break
        case .call(let continuation)?:
            continuation.resume(with: result)
        case .hello?:
            // A result that is not a hello (an old or odd daemon): go on without instance tracking.
            subscription.greeted((try? result.get()).flatMap { try? SesameHello.decode($0) })
            updateSubscription()
        case .subscribe(let mode)?:
            handleSubscribed(mode: mode, result)
        case .resync?:
            perform(subscription.tracker.resynced(try? result.get()))
        }
    }
}
