import SesameLocalAPI

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
