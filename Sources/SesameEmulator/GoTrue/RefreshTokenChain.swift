/// GoTrue's v1 refresh tokens: 12 characters of `[a-z0-9]`, one chain of rows per session,
/// each row naming its parent (reference A.3 and errata G.1–G.3).
struct RefreshTokenChain: Sendable, Codable {
    struct Row: Sendable, Codable {
        var token: String
        var sessionId: String
        var parent: String?
        var revoked = false
        /// Milliseconds; set when issued and when revoked (the reuse window counts from it).
        var updatedAt: Int
        /// Issue order, so "the active token" is the newest unrevoked one.
        var serial: Int
    }

    /// What a refresh with a presented token comes to.
    enum Outcome: Sendable, Equatable {
        /// A new child token was issued.
        case rotated(String)
        /// The token was the parent of the active one: the active one is handed back, none issued.
        case current(String)
        /// A token reused outside the interval: the family is now revoked.
        case alreadyUsed
        /// No such token (never issued, or its session ended).
        case notFound
    }

    private var rows: [String: Row] = [:]
    private var serial = 0

    static let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")

    /// Whether `token` has the v1 format.
    static func isWellFormed(_ token: String) -> Bool {
        token.count == 12 && token.allSatisfy { alphabet.contains($0) }
    }

    /// A new token for `sessionId`, child of `parent`.
    mutating func issue(sessionId: String, parent: String?, now: Int) -> String {
        var token: String
        repeat { token = RandomIdentifier.make(12, from: Self.alphabet) } while rows[token] != nil
        serial += 1
        rows[token] = Row(token: token, sessionId: sessionId, parent: parent, updatedAt: now, serial: serial)
        return token
    }

    func row(_ token: String) -> Row? { rows[token] }

    /// The newest unrevoked token of the session.
    func active(sessionId: String) -> Row? {
        rows.values.filter { $0.sessionId == sessionId && !$0.revoked }.max { $0.serial < $1.serial }
    }

    /// Applies GoTrue's rotation rules to a presented, well-formed token.
    mutating func refresh(_ token: String, now: Int, reuseIntervalSeconds: Int) -> Outcome {
        guard let row = rows[token] else { return .notFound }
        if row.revoked {
            if let active = active(sessionId: row.sessionId), active.parent == token { return .current(active.token) }
            if now > row.updatedAt + reuseIntervalSeconds * 1000 {
                revokeFamily(sessionId: row.sessionId, now: now)
                return .alreadyUsed
            }
        } else {
            rows[token]?.revoked = true
            rows[token]?.updatedAt = now
        }
        return .rotated(issue(sessionId: row.sessionId, parent: token, now: now))
    }

    /// Revokes every token of the session (reuse detection); the session itself stays.
    mutating func revokeFamily(sessionId: String, now: Int) {
        for (token, row) in rows where row.sessionId == sessionId && !row.revoked {
            rows[token]?.revoked = true
            rows[token]?.updatedAt = now
        }
    }

    /// Replaces the session's tokens with one new token (a verified second factor): the
    /// tokens issued before are gone, so none of them can be refreshed into the raised session.
    mutating func restart(sessionId: String, now: Int) -> String {
        removeSession(sessionId)
        return issue(sessionId: sessionId, parent: nil, now: now)
    }

    /// Deletes the session's tokens (sign-out, user deletion).
    mutating func removeSession(_ sessionId: String) {
        rows = rows.filter { $0.value.sessionId != sessionId }
    }
}
