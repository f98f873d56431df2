import Foundation
import NIOCore
import NIOPosix
import SesameLocalAPI

/// An in-test stand-in for `sesamed`: a Unix-socket server that speaks the protocol from a
/// script. It answers `hello`, `getState`, `subscribe` (with a snapshot, then `accountMerge`
/// for pending merges to migrators) and `unsubscribe` by itself; every other method answers
/// `method-not-found` unless scripted. Tests push notifications, send garbage, close
/// connections and restart it on the same path as a new instance.
actor FakeDaemon {
    /// How the fake answers one request.
    enum Reply: Sendable {
        case result(JSONValue)
        case error(LocalAPIError)
        /// Answer later, with ``answerHeld(method:with:)``.
        case hold
        /// Write this line instead of an answer.
        case raw(String)
        /// Close the connection without answering.
        case close
    }

    /// One accepted connection.
    final class Connection: Sendable {
        let channel: any Channel
        let number: Int
        init(channel: any Channel, number: Int) {
            self.channel = channel
            self.number = number
        }

        func send(_ line: String) {
            var buffer = channel.allocator.buffer(capacity: line.utf8.count + 1)
            buffer.writeString(line)
            buffer.writeString("\n")
            channel.writeAndFlush(buffer, promise: nil)
        }
    }

    struct Held {
        let request: LocalAPIRequest
        let connection: Connection
    }

    let path: String
    private(set) var instance: String
    private(set) var sequence: Int64 = 1
    var status = "anonymous"
    var uid = "guest-1"
    var tokenExpiresAt = "2026-11-21T11:05:00Z"
    var pendingMerges: [WireMerge] = []
    var role = "manager"

    private var server: (any Channel)?
    private var connections: [Int: Connection] = [:]
    private var subscriptions: [Int: [String: (events: Set<String>, migrator: Bool)]] = [:]
    private var nextConnection = 0
    private var nextSubscription = 0
    private var scripts: [String: @Sendable (LocalAPIRequest) -> Reply] = [:]
    private(set) var held: [Held] = []
    private(set) var maximumHeld = 0
    private(set) var requests: [LocalAPIRequest] = []
    private var waiters:
        [(predicate: @Sendable ([LocalAPIRequest]) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []

    init(path: String = FakeDaemon.temporaryPath()) {
        self.path = path
        self.instance = UUID().uuidString
    }

    static func temporaryPath() -> String {
        "/tmp/sesame-client-test-\(UInt32.random(in: 0...UInt32.max)).sock"
    }

    // MARK: Life

    func start() async throws {
        let daemon = self
        server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let (lines, continuation) = AsyncStream.makeStream(of: [UInt8].self)
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(NewlineDecoder()))
                    try channel.pipeline.syncOperations.addHandler(LineCollector(continuation: continuation))
                    Task { await daemon.serve(channel, lines: lines) }
                }
            }
            .bind(unixDomainSocketPath: path, cleanupExistingSocketFile: true)
            .get()
    }

    /// Stops listening and closes every connection; the socket file is removed.
    func stop() async {
        try? await server?.close()
        server = nil
        for connection in connections.values { try? await connection.channel.close() }
        connections = [:]
        subscriptions = [:]
        unlink(path)
    }

    /// Stops, then starts again on the same path as a new instance with `sequence` 1.
    func restart() async throws {
        await stop()
        instance = UUID().uuidString
        sequence = 1
        try await start()
    }

    // MARK: Script

    /// Changes the fake's fields (status, role, pending merges, …) without notifying.
    func configure(_ body: @Sendable (isolated FakeDaemon) -> Void) {
        body(self)
    }

    func script(_ method: String, _ reply: @escaping @Sendable (LocalAPIRequest) -> Reply) {
        scripts[method] = reply
    }

    /// Answers the oldest held request of `method`.
    func answerHeld(method: String, with reply: Reply) {
        guard let index = held.firstIndex(where: { $0.request.method == method }) else { return }
        let entry = held.remove(at: index)
        answer(entry.request, on: entry.connection, with: reply)
    }

    /// Waits until the requests received so far satisfy `predicate`.
    func waitForRequests(_ predicate: @escaping @Sendable ([LocalAPIRequest]) -> Bool) async {
        if predicate(requests) { return }
        await withCheckedContinuation { waiters.append((predicate, $0)) }
    }

    func waitForRequest(_ method: String, count: Int = 1) async {
        await waitForRequests { $0.filter { $0.method == method }.count >= count }
    }

    func requests(_ method: String) -> [LocalAPIRequest] {
        requests.filter { $0.method == method }
    }

    var connectionCount: Int { connections.count }

    /// How many connections were accepted since the start.
    var acceptedCount: Int { nextConnection }

    var subscriptionCount: Int { subscriptions.values.map(\.count).reduce(0, +) }

    // MARK: State and notifications

    var stateJSON: JSONValue {
        let user: JSONValue =
            status == "signedOut"
            ? .null
            : [
                "uid": .string(uid), "isAnonymous": .bool(status == "anonymous"), "email": .null,
                "emailVerified": false, "displayName": .null, "username": .null,
                "providers": status == "anonymous" ? [] : ["password"], "createdAt": "2026-11-21T10:00:00Z",
                "lastSignInAt": "2026-11-21T10:05:00Z", "factors": [], "pendingEmail": .null,
            ]
        return [
            "status": .string(status), "user": user,
            "token": status == "signedOut" ? .null : ["expiresAt": .string(tokenExpiresAt)],
            "connectivity": "online", "needsUsername": false,
            "pendingMerges": .array(pendingMerges.map(\.json)), "sequence": .integer(sequence),
            "signInPrompt": .null, "secondFactor": .null, "rateLimit": .null, "accessRequests": [],
        ]
    }

    /// Changes the session and notifies `authStateChanged` with the next sequence.
    func changeAuth(status: String, uid: String, reason: String) {
        let previous = self.uid
        self.status = status
        self.uid = uid
        sequence += 1
        notify(
            "authStateChanged",
            [
                "state": stateJSON, "previousUid": .string(previous), "reason": .string(reason),
                "sequence": .integer(sequence),
            ])
    }

    func refreshToken(expiresAt: String) {
        tokenExpiresAt = expiresAt
        sequence += 1
        notify(
            "idTokenChanged", ["uid": .string(uid), "expiresAt": .string(expiresAt), "sequence": .integer(sequence)])
    }

    /// Advances the sequence without telling anyone (so the next notification leaves a gap).
    func skipSequence(by count: Int64) {
        sequence += count
    }

    func recordMerge(_ merge: WireMerge) {
        pendingMerges.append(merge)
        notify("accountMerge", ["merge": merge.json, "sequence": .integer(sequence)])
    }

    /// Sends a notification to each subscription that asked for it.
    func notify(_ method: String, _ params: JSONValue) {
        let line = LocalAPIMessage.notification(method: method, params: params).json.jsonString
        for (number, subs) in subscriptions {
            for sub in subs.values where sub.events.contains(method) {
                connections[number]?.send(line)
            }
        }
    }

    /// Writes a line to every connection.
    func broadcastRaw(_ line: String) {
        for connection in connections.values { connection.send(line) }
    }

    func closeConnections() async {
        for connection in connections.values { try? await connection.channel.close() }
    }

    // MARK: Serving

    private func serve(_ channel: any Channel, lines: AsyncStream<[UInt8]>) async {
        nextConnection += 1
        let connection = Connection(channel: channel, number: nextConnection)
        connections[connection.number] = connection
        for await line in lines {
            handle(line, on: connection)
        }
        connections[connection.number] = nil
        subscriptions[connection.number] = nil
    }

    private func handle(_ line: [UInt8], on connection: Connection) {
        guard case .request(let request) = LocalAPIRequest.decode(line: line) else { return }
        requests.append(request)
        let ready = waiters.filter { $0.predicate(requests) }
        waiters.removeAll { $0.predicate(requests) }
        for waiter in ready { waiter.continuation.resume() }

        let reply = scripts[request.method]?(request) ?? defaultReply(request, on: connection)
        if case .hold = reply {
            held.append(Held(request: request, connection: connection))
            maximumHeld = max(maximumHeld, held.count)
            return
        }
        answer(request, on: connection, with: reply)
        if request.method == "subscribe", case .result = reply, request.params.values["migrator"] == .bool(true) {
            for merge in pendingMerges {
                connection.send(
                    LocalAPIMessage.notification(
                        method: "accountMerge", params: ["merge": merge.json, "sequence": .integer(sequence)]
                    ).json.jsonString)
            }
        }
    }

    private func answer(_ request: LocalAPIRequest, on connection: Connection, with reply: Reply) {
        let id = request.id ?? .null
        switch reply {
        case .result(let result): connection.send(LocalAPIMessage.success(id: id, result: result).json.jsonString)
        case .error(let error): connection.send(LocalAPIMessage.failure(id: id, error: error).json.jsonString)
        case .raw(let line): connection.send(line)
        case .close: connection.channel.close(promise: nil)
        case .hold: break
        }
    }

    private func defaultReply(_ request: LocalAPIRequest, on connection: Connection) -> Reply {
        switch request.method {
        case "hello":
            return .result([
                "server": "sesamed", "version": "0.0-test", "protocol": 1, "instance": .string(instance),
                "role": .string(role), "peer": ["uid": 1000, "gid": 1000, "pid": 42],
            ])
        case "getState":
            return .result(stateJSON)
        case "subscribe":
            let migrator = request.params.values["migrator"] == .bool(true)
            if migrator && role != "manager" {
                return .error(.permissionDenied(requiredRole: .manager))
            }
            let events =
                request.params.values["events"]?.arrayValue?.compactMap(\.stringValue)
                ?? LocalAPIEvent.defaultSet.map(\.rawValue)
            nextSubscription += 1
            let id = "sub-\(nextSubscription)"
            subscriptions[connection.number, default: [:]][id] = (Set(events), migrator)
            return .result(["subscription": .string(id), "state": stateJSON])
        case "unsubscribe":
            let id = request.params.values["subscription"]?.stringValue ?? ""
            guard subscriptions[connection.number]?.removeValue(forKey: id) != nil else {
                return .error(.invalidParams("unknown subscription"))
            }
            return .result([:])
        default:
            return .error(.methodNotFound(request.method))
        }
    }
}
