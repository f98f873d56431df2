import Foundation
import SesameCore

/// A scriptable ``UsernameDirectory`` in memory: claims are atomic (an actor), writes check
/// that the ID token belongs to the uid written for (tokens of ``FakeRemoteAuthProvider`` are
/// `id.<uid>.<n>`), failures can be injected per operation and claims can be held open.
public actor FakeUsernameDirectory: UsernameDirectory {
    /// `/users/usernames/{key}` → uid.
    public private(set) var usernames: [String: String] = [:]
    /// `/users/details/{uid}`.
    public private(set) var records: [String: UsernameDetails] = [:]
    public private(set) var calls: [String: Int] = [:]
    private var scriptedFailures: [String: [RemoteAuthError]] = [:]
    private var offline = false
    private var lostAnswers: [String: Int] = [:]
    private var holdingClaims = false
    private var heldClaims: [CheckedContinuation<Void, Never>] = []

    public init(usernames: [String: String] = [:], details: [String: UsernameDetails] = [:]) {
        self.usernames = usernames
        self.records = details
    }

    // MARK: Knobs

    /// Every call fails as unreachable until turned off.
    public func setOffline(_ value: Bool) { offline = value }
    /// The next call of `operation` (`owner`, `claim`, `release`, `details`, `setDetails`)
    /// fails with `error`.
    public func failNext(_ operation: String, with error: RemoteAuthError = .transport("fake directory down")) {
        scriptedFailures[operation, default: []].append(error)
    }
    /// The next call of `operation` takes effect, then fails as unreachable: its answer is lost.
    public func loseNextAnswer(_ operation: String) { lostAnswers[operation, default: 0] += 1 }
    /// Claims wait (before taking effect) until ``releaseClaims()``.
    public func holdClaims() { holdingClaims = true }
    public func releaseClaims() {
        holdingClaims = false
        let held = heldClaims
        heldClaims = []
        for continuation in held { continuation.resume() }
    }
    public var heldClaimCount: Int { heldClaims.count }
    public func count(_ operation: String) -> Int { calls[operation] ?? 0 }
    /// Writes directly, as another client of the directory would.
    public func put(key: String, uid: String?) { usernames[key] = uid }
    public func put(details: UsernameDetails?, of uid: String) { records[uid] = details }

    // MARK: UsernameDirectory

    public func owner(of key: String) async throws(RemoteAuthError) -> String? {
        try enter("owner")
        return usernames[key]
    }

    public func claim(_ key: String, for uid: String, idToken: IDToken) async throws(RemoteAuthError) -> Bool {
        try enter("claim")
        try authorise(idToken, uid)
        if holdingClaims {
            await withCheckedContinuation { heldClaims.append($0) }
        }
        if let holder = usernames[key] { return holder == uid }
        usernames[key] = uid
        return true
    }

    public func release(_ key: String, of uid: String, idToken: IDToken) async throws(RemoteAuthError) {
        try enter("release")
        try authorise(idToken, uid)
        if usernames[key] == uid { usernames[key] = nil }
    }

    public func details(of uid: String) async throws(RemoteAuthError) -> UsernameDetails? {
        try enter("details")
        return records[uid]
    }

    public func setDetails(_ details: UsernameDetails, of uid: String, idToken: IDToken) async throws(RemoteAuthError) {
        try enter("setDetails")
        try authorise(idToken, uid)
        records[uid] = details
        try answer("setDetails")
    }

    // MARK: Helpers

    private func enter(_ operation: String) throws(RemoteAuthError) {
        calls[operation, default: 0] += 1
        if offline { throw .transport("fake directory offline") }
        if var queue = scriptedFailures[operation], !queue.isEmpty {
            let error = queue.removeFirst()
            scriptedFailures[operation] = queue
            throw error
        }
    }

    /// Throws when the answer of `operation` is to be lost (after it took effect).
    private func answer(_ operation: String) throws(RemoteAuthError) {
        guard let count = lostAnswers[operation], count > 0 else { return }
        lostAnswers[operation] = count - 1
        throw .transport("fake directory: answer lost")
    }

    /// Like the security rules: only the uid's own token may write for it.
    private func authorise(_ idToken: IDToken, _ uid: String) throws(RemoteAuthError) {
        let parts = idToken.rawValue.split(separator: ".")
        if parts.count == 3, String(parts[1]) != uid {
            throw .rejected(AuthError(.operationNotAllowed, message: "fake directory: permission denied"))
        }
    }
}
