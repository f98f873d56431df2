/// Where the daemon keeps ``PersistedState`` across restarts.
///
/// `save` must be durable and atomic when it returns: after a crash at any instruction, `load`
/// returns either the previous or the new state, never a mix and never nothing.
public protocol SessionStore: Sendable {
    /// The stored state, or nil when nothing was ever stored.
    /// - Throws: ``SessionStoreError`` with kind `.unreadable` when something is stored but
    ///   cannot be read; callers must not overwrite it.
    func load() async throws(SessionStoreError) -> PersistedState?
    /// Replaces the stored state.
    func save(_ state: PersistedState) async throws(SessionStoreError)
}
