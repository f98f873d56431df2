import SesameLocalAPI

/// The requests of one connection that wait for an answer, and the in-flight cap: at most
/// `maximumInFlight` are sent and unanswered, the rest wait in order for a slot.
///
/// A pure value: it says which lines to send; ``ClientEngine`` writes them.
///
/// Invariants: every id in `waiting` is either in `inFlight` (sent, unanswered) or in `queued`.
/// A cancelled call leaves `waiting` at once; its slot frees when the daemon answers.
struct PendingCalls {
    /// What a request id waits for.
    enum Kind {
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

    let maximumInFlight: Int
    private var nextID: Int64 = 1
    private var waiting: [Int64: Kind] = [:]
    private var inFlight: Set<Int64> = []
    private var queued: [(id: Int64, line: [UInt8])] = []

    init(maximumInFlight: Int) {
        self.maximumInFlight = maximumInFlight
    }

    /// The number of requests sent and not answered yet.
    var inFlightCount: Int { inFlight.count }
    /// The number of requests waiting for a slot.
    var queuedCount: Int { queued.count }

    /// A new request id; ids are never reused within a client.
    mutating func allocateID() -> Int64 {
        defer { nextID += 1 }
        return nextID
    }

    /// Records request `id` (its `line` already encoded). Returns the line when a slot is free
    /// (send it now), nil when it is queued.
    mutating func add(_ id: Int64, _ kind: Kind, line: [UInt8]) -> [UInt8]? {
        waiting[id] = kind
        guard inFlight.count < maximumInFlight else {
            queued.append((id, line))
            return nil
        }
        inFlight.insert(id)
        return line
    }

    /// The daemon answered `id`: returns who waited for it (nil when nobody does any more) and
    /// the queued lines that take the freed slot.
    mutating func answered(_ id: Int64) -> (kind: Kind?, send: [[UInt8]]) {
        inFlight.remove(id)
        let kind = waiting.removeValue(forKey: id)
        var send: [[UInt8]] = []
        while inFlight.count < maximumInFlight, !queued.isEmpty {
            let next = queued.removeFirst()
            inFlight.insert(next.id)
            send.append(next.line)
        }
        return (kind, send)
    }

    /// Forgets request `id`: a queued one is never sent, a sent one's answer is ignored.
    /// Returns who waited for it.
    mutating func cancel(_ id: Int64) -> Kind? {
        queued.removeAll { $0.id == id }
        return waiting.removeValue(forKey: id)
    }

    /// Forgets every caller's request (an error with id null concerns the whole connection)
    /// and returns them; the connection's own requests stay.
    mutating func removeCallers() -> [CheckedContinuation<JSONValue, any Error>] {
        var callers: [CheckedContinuation<JSONValue, any Error>] = []
        for (id, kind) in waiting {
            guard case .call(let continuation) = kind else { continue }
            waiting[id] = nil
            queued.removeAll { $0.id == id }
            callers.append(continuation)
        }
        return callers
    }

    /// The connection is gone: forgets everything and returns the callers to fail.
    mutating func removeAll() -> [CheckedContinuation<JSONValue, any Error>] {
        let callers = waiting.values.compactMap { kind -> CheckedContinuation<JSONValue, any Error>? in
            if case .call(let continuation) = kind { continuation } else { nil }
        }
        waiting = [:]
        inFlight = []
        queued = []
        return callers
    }
}
