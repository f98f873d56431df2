import SesameCore

/// `session.persistence`: where the session lives between starts.
enum SessionPersistence: String, Sendable {
    /// The encrypted keyring in the state directory (the default).
    case disk
    /// Memory only (kiosks): no keyring is opened or written, and at stop a guest is deleted at
    /// the backend and an account signed out, so the next start begins fresh.
    case memory
}

/// The store of `session.persistence = "memory"`: it keeps nothing (the service holds the
/// session in memory), so a start always begins fresh and no file is ever written.
struct DiscardingSessionStore: SessionStore {
    func load() async throws(SessionStoreError) -> PersistedState? { nil }
    func save(_ state: PersistedState) async throws(SessionStoreError) {}
}
