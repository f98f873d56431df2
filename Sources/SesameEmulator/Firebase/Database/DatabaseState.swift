import SesameLocalAPI

/// The single owner of every database namespace's tree.
///
/// Each operation completes inside the actor without suspending, so conditional writes are
/// serialised: of two racing `if-match` writes on one location, exactly one matches.
actor DatabaseState {
    let clock: EmulatorClock
    private(set) var trees: [String: JSONValue] = [:]
    private var rules: [String: JSONValue] = [:]
    /// The parsed rules of namespaces that had rules uploaded; the others are open.
    private(set) var enforced: [String: SecurityRules] = [:]
    var listeners = DatabaseListeners()

    init(clock: EmulatorClock) { self.clock = clock }

    /// The outcome of a conditional operation.
    enum Outcome: Sendable {
        /// Done; the value now stored at the location and its ETag.
        case done(JSONValue, etag: String)
        /// `if-match` did not match; the current value and its ETag.
        case preconditionFailed(JSONValue, etag: String)
    }

    func read(
        namespace: String, path: DatabasePath, as identity: DatabaseIdentity = .owner
    ) throws(DatabaseError) -> (value: JSONValue, etag: String) {
        try checkRead(namespace: namespace, path: path, as: identity)
        let value = DatabaseValue.child(of: trees[namespace] ?? .null, at: path.keys)
        return (value, DatabaseValue.etag(of: value))
    }

    /// Replaces the value at `path` when `ifMatch` is nil or equals its current ETag.
    func write(
        namespace: String, path: DatabasePath, value: JSONValue, ifMatch: String?,
        as identity: DatabaseIdentity = .owner
    ) throws(DatabaseError) -> Outcome {
        let normalized = try DatabaseValue.normalize(value, now: clock.milliseconds())
        let root = trees[namespace] ?? .null
        let proposed = DatabaseValue.replacing(in: root, at: path.keys[...], with: normalized)
        try checkWrite(namespace: namespace, at: [path], before: root, after: proposed, as: identity)
        if let ifMatch {
            let current = DatabaseValue.child(of: root, at: path.keys)
            let etag = DatabaseValue.etag(of: current)
            if etag != ifMatch { return .preconditionFailed(current, etag: etag) }
        }
        trees[namespace] = proposed
        cancelUnreadable(namespace: namespace)
        listeners.replaced(namespace: namespace, at: path, before: root, after: proposed)
        return .done(normalized, etag: DatabaseValue.etag(of: normalized))
    }

    /// Multi-location update: each key of `children` is a path relative to `path`.
    /// - Returns: the ETag of the value now at `path`.
    @discardableResult
    func update(
        namespace: String, path: DatabasePath, children: [String: JSONValue], as identity: DatabaseIdentity = .owner
    ) throws(DatabaseError) -> String {
        let now = clock.milliseconds()
        var changes: [(DatabasePath, JSONValue)] = []
        for (relative, child) in children {
            let sub = try DatabasePath(urlPath: relative)
            if sub.keys.isEmpty { throw .invalidKey(relative) }
            changes.append((path.appending(sub), try DatabaseValue.normalize(child, now: now)))
        }
        let before = trees[namespace] ?? .null
        let root = changes.reduce(before) { DatabaseValue.replacing(in: $0, at: $1.0.keys[...], with: $1.1) }
        try checkWrite(namespace: namespace, at: changes.map(\.0), before: before, after: root, as: identity)
        trees[namespace] = root
        cancelUnreadable(namespace: namespace)
        listeners.patched(namespace: namespace, at: path, children: Array(children.keys), before: before, after: root)
        return DatabaseValue.etag(of: DatabaseValue.child(of: root, at: path.keys))
    }

    /// Stores and from now on enforces security rules (`/.settings/rules.json`); streams that
    /// may no longer read are cancelled.
    /// - Throws: ``SecurityRulesError`` for rules the emulator cannot enforce (nothing changes).
    func setRules(namespace: String, rules value: JSONValue) throws(SecurityRulesError) {
        enforced[namespace] = try SecurityRules.parse(value)
        rules[namespace] = value
        cancelUnreadable(namespace: namespace)
    }

    func rules(namespace: String) -> JSONValue { rules[namespace] ?? ["rules": [".read": true, ".write": true]] }

    /// Replaces every namespace (import); open streams end (clients reconnect and read anew).
    func replaceAll(_ newTrees: [String: JSONValue]) {
        trees = newTrees
        listeners.removeAll()
    }

    /// Opens a stream of the location's events, starting with its current value; nil when too
    /// many streams are open (``DatabaseListeners/maximumCount``).
    func listen(
        namespace: String, path: DatabasePath, as identity: DatabaseIdentity = .owner
    ) throws(DatabaseError) -> DatabaseListeners.Registration? {
        try checkRead(namespace: namespace, path: path, as: identity)
        let initial = DatabaseValue.child(of: trees[namespace] ?? .null, at: path.keys)
        return listeners.add(namespace: namespace, path: path, identity: identity, initial: initial)
    }

    /// Ends a stream opened by ``listen(namespace:path:)``.
    func stopListening(_ id: Int) { listeners.remove(id) }
}

/// Enforcing a namespace's uploaded rules (``SecurityRules``); a namespace without uploaded
/// rules is open, as in Google's emulator.
extension DatabaseState {
    /// - Throws: 401 `Permission denied` when the rules do not let `identity` read `path`, 401
    ///   with the token's problem for an invalid credential.
    func checkRead(namespace: String, path: DatabasePath, as identity: DatabaseIdentity) throws(DatabaseError) {
        guard let rules = enforced[namespace], let auth = try Self.auth(of: identity) else { return }
        let tree = trees[namespace] ?? .null
        if !rules.canRead(path, tree: tree, auth: auth, now: clock.milliseconds()) { throw .permissionDenied }
    }

    /// - Throws: 401 `Permission denied` when a location of the write lacks a `.write` grant or a
    ///   `.validate` rule fails (nothing is written: a multi-location update is all or nothing).
    func checkWrite(
        namespace: String, at locations: [DatabasePath], before: JSONValue, after: JSONValue,
        as identity: DatabaseIdentity
    ) throws(DatabaseError) {
        guard let rules = enforced[namespace], let auth = try Self.auth(of: identity) else { return }
        if !rules.canWrite(locations, before: before, after: after, auth: auth, now: clock.milliseconds()) {
            throw .permissionDenied
        }
    }

    /// Sends `cancel` to, and ends, every stream of `namespace` whose identity may no longer
    /// read its location (after a write or new rules).
    func cancelUnreadable(namespace: String) {
        guard let rules = enforced[namespace] else { return }
        let tree = trees[namespace] ?? .null
        let now = clock.milliseconds()
        listeners.cancel(namespace: namespace) { path, identity in
            // The owner's streams skip the rules; a credential that no longer holds loses its stream.
            // (Not `try?`: it would flatten the owner's nil into a failure.)
            let auth: JSONValue?
            do { auth = try Self.auth(of: identity) } catch { return true }
            guard let auth else { return false }
            return !rules.canRead(path, tree: tree, auth: auth, now: now)
        }
    }

    /// The `auth` rules see; nil for the owner (rules skipped).
    private static func auth(of identity: DatabaseIdentity) throws(DatabaseError) -> JSONValue? {
        switch identity {
        case .owner: nil
        case .user(let auth): auth
        case .invalid(let message): throw DatabaseError(httpStatus: 401, message: message)
        }
    }
}

extension DatabaseError {
    /// A rule refused the read or write (RTDB's text).
    static let permissionDenied = DatabaseError(httpStatus: 401, message: "Permission denied")
}
