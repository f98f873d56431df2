import SesameLocalAPI

/// The open streaming `GET`s of every namespace and the events each write sends them.
///
/// Owned by ``DatabaseState``, so a listener registers and reads its initial value in the same
/// step as writes happen: it misses nothing and sees nothing twice. Delivering never waits: each
/// listener has a bounded buffer, and a listener whose buffer is full (it does not read) is
/// dropped — its stream ends, and an RTDB client reconnects and starts from a fresh `put`.
struct DatabaseListeners {
    struct Listener {
        let namespace: String
        let path: DatabasePath
        let identity: DatabaseIdentity
        let continuation: AsyncStream<DatabaseEvent>.Continuation
    }

    /// A registered listener: its id (for ``remove(_:)``), its events, and the continuation that
    /// feeds them (the keep-alive timer adds to it).
    struct Registration: Sendable {
        let id: Int
        let events: AsyncStream<DatabaseEvent>
        let continuation: AsyncStream<DatabaseEvent>.Continuation
    }

    /// At most this many streams at once (across namespaces); more are refused.
    static let maximumCount = 64
    /// Events buffered for one listener before it counts as not reading and is dropped.
    static let bufferSize = 1024

    private var listeners: [Int: Listener] = [:]
    private var nextID = 0

    var count: Int { listeners.count }

    /// Registers a listener whose first event is `put` of `initial` at `/`; nil when
    /// ``maximumCount`` are open.
    mutating func add(
        namespace: String, path: DatabasePath, identity: DatabaseIdentity, initial: JSONValue
    ) -> Registration? {
        guard listeners.count < Self.maximumCount else { return nil }
        let (events, continuation) = AsyncStream.makeStream(
            of: DatabaseEvent.self, bufferingPolicy: .bufferingOldest(Self.bufferSize))
        continuation.yield(.put(path: .root, data: initial))
        nextID += 1
        listeners[nextID] = Listener(namespace: namespace, path: path, identity: identity, continuation: continuation)
        return Registration(id: nextID, events: events, continuation: continuation)
    }

    /// Ends and forgets a listener (its stream finishes).
    mutating func remove(_ id: Int) { listeners.removeValue(forKey: id)?.continuation.finish() }

    /// Ends every listener (the emulator stops, or every namespace was replaced).
    mutating func removeAll() {
        for id in Array(listeners.keys) { remove(id) }
    }

    /// Sends `cancel` to, and ends, each listener of `namespace` for which `lost` is true (it
    /// may no longer read its location).
    mutating func cancel(namespace: String, where lost: (DatabasePath, DatabaseIdentity) -> Bool) {
        for (id, listener) in listeners where listener.namespace == namespace {
            guard lost(listener.path, listener.identity) else { continue }
            listener.continuation.yield(.cancel)
            remove(id)
        }
    }

    /// Tells listeners of `namespace` about a replacement of `written` (`PUT`, `POST`, `DELETE`),
    /// given the namespace's tree before and after.
    mutating func replaced(namespace: String, at written: DatabasePath, before: JSONValue, after: JSONValue) {
        deliver(namespace: namespace, at: written, before: before, after: after) { listened in
            .put(path: written.relative(to: listened), data: DatabaseValue.child(of: after, at: written.keys))
        }
    }

    /// Tells listeners of `namespace` about a `PATCH` of `children` (relative paths) at `updated`.
    mutating func patched(
        namespace: String, at updated: DatabasePath, children: [String], before: JSONValue, after: JSONValue
    ) {
        deliver(namespace: namespace, at: updated, before: before, after: after) { listened in
            var data: [String: JSONValue] = [:]
            for child in children {
                let location = (try? DatabasePath(urlPath: child)).map(updated.appending) ?? updated
                data[child] = DatabaseValue.child(of: after, at: location.keys)
            }
            return .patch(path: updated.relative(to: listened), data: .object(data))
        }
    }

    /// Sends each listener whose value changed either `below(listened path)` (the write is at or
    /// below the listened location) or a `put` of its whole new value (the write is above it).
    private mutating func deliver(
        namespace: String, at written: DatabasePath, before: JSONValue, after: JSONValue,
        below: (DatabasePath) -> DatabaseEvent
    ) {
        for (id, listener) in listeners where listener.namespace == namespace {
            let path = listener.path
            guard path.contains(written) || written.contains(path) else { continue }
            let new = DatabaseValue.child(of: after, at: path.keys)
            if new == DatabaseValue.child(of: before, at: path.keys) { continue }
            let event = path.contains(written) ? below(path) : .put(path: .root, data: new)
            if case .enqueued = listener.continuation.yield(event) { continue }
            remove(id)
        }
    }
}
