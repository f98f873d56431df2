import SesameCore

/// A ``SessionStore`` in memory, with a record of every save and a switch to make saves or
/// loads fail.
public actor InMemorySessionStore: SessionStore {
    public private(set) var stored: PersistedState?
    public private(set) var saveCount = 0
    /// Saves refused by ``failSaves(with:)``.
    public private(set) var failedSaves = 0
    private var loadError: SessionStoreError?
    private var saveError: SessionStoreError?

    public init(_ stored: PersistedState? = nil) {
        self.stored = stored
    }

    /// Makes the next loads fail (for example with `.unreadable`).
    public func failLoads(with error: SessionStoreError?) { loadError = error }

    /// Makes the next saves fail (a full disk, an I/O error) until called with nil.
    public func failSaves(with error: SessionStoreError?) { saveError = error }

    public func load() async throws(SessionStoreError) -> PersistedState? {
        if let loadError { throw loadError }
        return stored
    }

    public func save(_ state: PersistedState) async throws(SessionStoreError) {
        if let saveError {
            failedSaves += 1
            throw saveError
        }
        stored = state
        saveCount += 1
    }
}
