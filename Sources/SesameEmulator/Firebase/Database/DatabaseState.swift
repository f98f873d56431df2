import SesameLocalAPI

/// The single owner of every database namespace's tree.
///
/// Each operation completes inside the actor without suspending, so conditional writes are
/// serialised: of two racing `if-match` writes on one location, exactly one matches.
actor DatabaseState {
    let clock: EmulatorClock
    private(set) var trees: [String: JSONValue] = [:]
    private var rules: [String: JSONValue] = [:]
    private var listeners = DatabaseListeners()

    init(clock: EmulatorClock) { self.clock = clock }

    /// The outcome of a conditional operation.
    enum Outcome: Sendable {
        /// Done; the value now stored at the location and its ETag.
        case done(JSONValue, etag: String)
        /// `if-match` did not match; the current value and its ETag.
        case preconditionFailed(JSONValue, etag: String)
    }

    func read(namespace: String, path: DatabasePath) -> (value: JSONValue, etag: String) {
        let value = DatabaseValue.child(of: trees[namespace] ?? .null, at: path.keys[...])
        return (value, DatabaseValue.etag(of: value))
    }

    /// Replaces the value at `path` when `ifMatch` is nil or equals its current ETag.
    func write(
        namespace: String, path: DatabasePath, value: JSONValue, ifMatch: String?
    ) throws(DatabaseError) -> Outcome {
        let normalized = try DatabaseValue.normalize(value, now: clock.milliseconds())
        let root = trees[namespace] ?? .null
        if let ifMatch {
            let current = DatabaseValue.child(of: root, at: path.keys[...])
            let etag = DatabaseValue.etag(of: current)
            if etag != ifMatch { return .preconditionFailed(current, etag: etag) }
        }
        trees[namespace] = nil
        let after = DatabaseValue.replacing(in: root, at: path.keys[...], with: normalized)
        trees[namespace] = after
        listeners.replaced(namespace: namespace, at: path, before: root, after: after)
        return .done(normalized, etag: DatabaseValue.etag(of: normalized))
    }

    /// Multi-location update: each key of `children` is a path relative to `path`.
    /// - Returns: the ETag of the value now at `path`.
    @discardableResult
    func update(
        namespace: String, path: DatabasePath, children: [String: JSONValue]
    ) throws(DatabaseError) -> String {
        let now = clock.milliseconds()
        var changes: [(DatabasePath, JSONValue)] = []
        for (relative, child) in children {
            let sub = try DatabasePath(urlPath: relative)
            if sub.keys.isEmpty { throw .invalidKey(relative) }
            changes.append((path.appending(sub), try DatabaseValue.normalize(child, now: now)))
        }
        let before = trees[namespace] ?? .null
        var root = before
        trees[namespace] = nil
        for (location, value) in changes {
            root = DatabaseValue.replacing(in: root, at: location.keys[...], with: value)
        }
        trees[namespace] = root
        listeners.patched(namespace: namespace, at: path, children: Array(children.keys), before: before, after: root)
        return DatabaseValue.etag(of: DatabaseValue.child(of: root, at: path.keys[...]))
    }

    /// Stores security rules (`/.settings/rules.json`); they are kept but never enforced.
    func setRules(namespace: String, rules value: JSONValue) { rules[namespace] = value }

    func rules(namespace: String) -> JSONValue {
        rules[namespace] ?? ["rules": [".read": true, ".write": true]]
    }

    /// Replaces every namespace (import); open streams end (clients reconnect and read anew).
    func replaceAll(_ newTrees: [String: JSONValue]) {
        trees = newTrees
        listeners.removeAll()
    }

    /// Opens a stream of the location's events, starting with its current value; nil when too
    /// many streams are open (``DatabaseListeners/maximumCount``).
    func listen(namespace: String, path: DatabasePath) -> DatabaseListeners.Registration? {
        let initial = DatabaseValue.child(of: trees[namespace] ?? .null, at: path.keys[...])
        return listeners.add(namespace: namespace, path: path, initial: initial)
    }

    /// Ends a stream opened by ``listen(namespace:path:)``.
    func stopListening(_ id: Int) { listeners.remove(id) }

    /// Ends every stream (the emulator stops).
    func stopAllListeners() { listeners.removeAll() }

    var listenerCount: Int { listeners.count }
}
