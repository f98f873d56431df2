import SesameLocalAPI

/// Everything ``GoTrueStore`` keeps except its configuration: what a data directory saves in
/// `supabase_export/state.json` so users, sessions and refresh tokens outlive a restart.
struct GoTrueSnapshot: Sendable, Codable {
    var users: [String: GoTrueUser]
    var sessions: [String: GoTrueSession]
    var refreshTokens: RefreshTokenChain
    var codes: [OneTimeCode]
    var messages: [SupabaseMessage]
    var lastSent: [String: Int]
    var tables: PostgRESTTables
    /// Absent in snapshots written before second factors were served.
    var challenges: [String: MFAChallenge]?
}

extension GoTrueStore {
    func exportSnapshot() -> GoTrueSnapshot {
        GoTrueSnapshot(
            users: users.byId, sessions: sessions.byId, refreshTokens: sessions.refreshTokens, codes: mail.codes,
            messages: mail.messages, lastSent: mail.lastSent, tables: tables, challenges: challenges.mfa)
    }

    /// Replaces the whole state with a saved one.
    func importSnapshot(_ snapshot: GoTrueSnapshot) {
        users = GoTrueUsers(snapshot.users)
        sessions = GoTrueSessions(snapshot.sessions, refreshTokens: snapshot.refreshTokens)
        mail = GoTrueMailbox(codes: snapshot.codes, messages: snapshot.messages, lastSent: snapshot.lastSent)
        tables = snapshot.tables
        challenges.mfa = snapshot.challenges ?? [:]
    }
}

/// `amr` as `[{"method": …, "at": …}]`: a tuple array has no synthesized `Codable`.
extension GoTrueSession: Codable {
    private enum CodingKeys: String, CodingKey { case id, userId, amr, createdAt, refreshedAt, factorId }
    private struct Method: Codable {
        var method: String
        var at: Int
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            userId: try container.decode(String.self, forKey: .userId),
            amr: try container.decode([Method].self, forKey: .amr).map { (method: $0.method, at: $0.at) },
            createdAt: try container.decode(Int.self, forKey: .createdAt),
            refreshedAt: try container.decodeIfPresent(Int.self, forKey: .refreshedAt),
            factorId: try container.decodeIfPresent(String.self, forKey: .factorId))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(userId, forKey: .userId)
        try container.encode(amr.map { Method(method: $0.method, at: $0.at) }, forKey: .amr)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encodeIfPresent(refreshedAt, forKey: .refreshedAt)
        try container.encodeIfPresent(factorId, forKey: .factorId)
    }
}
