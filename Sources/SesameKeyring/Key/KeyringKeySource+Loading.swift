import Logging
import SesameCore

extension KeyringKeySource {
    /// Reads the key, or creates a key file when there is neither a key nor a keyring.
    ///
    /// - Returns: the key, or the `.unreadable` error that ``EncryptedFileSessionStore/load()``
    ///   will report: the key cannot be read, is malformed, or is missing while the keyring
    ///   exists (a new key is never made then).
    /// - Throws: `.io` when a new key file cannot be written.
    func loadOrCreateKey(
        keyringPath: String, logger: Logger
    ) throws(SessionStoreError) -> Result<KeyringKey, SessionStoreError> {
        let source = self
        let bytes: [UInt8]?
        do {
            bytes = try DurableFile.contents(of: source.path)
        } catch {
            return unreadable(keyringPath, "cannot be opened: its \(source) cannot be read (\(error))")
        }
        if let bytes {
            guard let key = KeyringKey(fileBytes: bytes) else {
                return unreadable(
                    keyringPath,
                    "cannot be opened: its \(source) is malformed (a key is 32 raw bytes, or 64 hex characters and an optional newline)"
                )
            }
            return .success(key)
        }
        if DurableFile.exists(keyringPath) {
            return unreadable(keyringPath, "exists but its \(source) is missing")
        }
        guard case .file(let keyPath) = source else {
            preconditionFailure("a credential source is chosen only when its file exists")
        }
        let fresh = KeyringKey.random()
        do {
            if try DurableFile.createNew(keyPath, with: fresh.fileBytes, mode: 0o600) {
                logger.info("keyring key created", metadata: ["keyring.key_path": "\(keyPath)"])
                return .success(fresh.key)
            }
        } catch {
            throw SessionStoreError(.io, "Cannot create the keyring key \(keyPath): \(error).")
        }
        // Someone created it between our read and our link; use theirs.
        return try loadOrCreateKey(keyringPath: keyringPath, logger: logger)
    }

    private func unreadable(_ keyringPath: String, _ problem: String) -> Result<KeyringKey, SessionStoreError> {
        .failure(
            SessionStoreError(
                .unreadable, EncryptedFileSessionStore.unreadableMessage(path: keyringPath, problem: problem)))
    }
}
