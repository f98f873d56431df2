/// `auth.sessions` with their refresh-token chains.
struct GoTrueSessions: Sendable {
    private(set) var byId: [String: GoTrueSession] = [:]
    var refreshTokens = RefreshTokenChain()

    subscript(id: String) -> GoTrueSession? {
        get { byId[id] }
        set { byId[id] = newValue }
    }

    /// A new session of `userId` signed in by `method`, with its first refresh token.
    mutating func start(userId: String, method: String, id: String, now: Int) -> (GoTrueSession, refresh: String) {
        let session = GoTrueSession(
            id: id, userId: userId, amr: [.init(method: method, at: now / 1000)], createdAt: now)
        byId[session.id] = session
        return (session, refreshTokens.issue(sessionId: session.id, parent: nil, now: now))
    }

    /// Ends sessions and deletes their refresh tokens.
    mutating func end(_ ids: [String]) {
        for id in ids {
            byId[id] = nil
            refreshTokens.removeSession(id)
        }
    }

    func ids(of userId: String) -> [String] {
        byId.values.filter { $0.userId == userId }.map(\.id)
    }

    /// Takes the second-factor methods from the sessions `factorId` raised (GoTrue's `DowngradeSessionsToAAL1`).
    mutating func downgrade(raisedBy factorId: String) {
        for id in byId.keys where byId[id]?.factorId == factorId {
            byId[id]?.amr.removeAll { GoTrueSession.secondFactorMethods.contains($0.method) }
            byId[id]?.factorId = nil
        }
    }
}
