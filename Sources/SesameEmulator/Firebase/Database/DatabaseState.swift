import SesameLocalAPI

/// The single owner of every database namespace's tree.
///
/// Each operation completes inside the actor without suspending, so conditional writes are
/// serialised: of two racing `if-match` writes on one location, exactly one matches.
actor DatabaseState {
    let clock: EmulatorClock
    private(set) var trees: [String: JSONValue] = [:]
    private var rules: [String: JSONValue] = [:]

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
        trees[namespace] = DatabaseValue.replacing(in: root, at: path.keys[...], with: normalized)
        return .done(normalized, etag: DatabaseValue.etag(of: normalized))
    }

    /// Multi-location update: each key of `children` is a path relative to `path`.
    func update(namespace: String, path: DatabasePath, children: [String: JSONValue]) throws(DatabaseError) {
        let now = clock.milliseconds()
        var changes: [(DatabasePath, JSONValue)] = []
        for (relative, child) in children {
            let sub = try DatabasePath(urlPath: relative)
            if sub.keys.isEmpty { throw .invalidKey(relative) }
            changes.append((path.appending(sub), try DatabaseValue.normalize(child, now: now)))
        }
        var root = trees[namespace] ?? .null
        trees[namespace] = nil
        for (location, value) in changes {
            root = DatabaseValue.replacing(in: root, at: location.keys[...], with: value)
        }
        trees[namespace] = root
    }

    /// Stores security rules (`/.settings/rules.json`); they are kept but never enforced.
    func setRules(namespace: String, rules value: JSONValue) { rules[namespace] = value }

    func rules(namespace: String) -> JSONValue {
        rules[namespace] ?? ["rules": [".read": true, ".write": true]]
    }

    /// Replaces every namespace (import).
    func replaceAll(_ newTrees: [String: JSONValue]) { trees = newTrees }
}
