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
        users = GoTrueUsers(byId: snapshot.users)
        sessions = GoTrueSessions(byId: snapshot.sessions, refreshTokens: snapshot.refreshTokens)
        mail = GoTrueMailbox(codes: snapshot.codes, messages: snapshot.messages, lastSent: snapshot.lastSent)
        tables = snapshot.tables
        challenges.mfa = snapshot.challenges ?? [:]
    }
}
