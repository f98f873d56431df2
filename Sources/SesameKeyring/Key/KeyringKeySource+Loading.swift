import Logging
import SesameCore

extension KeyringKeySource {
    /// Reads the key, or creates a key file when there is neither a key nor a keyring.
    ///
    /// - Returns: the key, or the `.unreadable` error that ``EncryptedFileSessionStore/load()``
    ///   will report: the key cannot be read, is malformed, or is missing while the keyring
    ///   exists (a new key is never made then).
    /// - Throws: `.io` when a new key file cannot be written; `.unsafe` when the key is a
    ///   symbolic link (dangling or not), not a regular file, not the daemon's, or readable by
    ///   others (``GuardedFile``).
    func loadOrCreateKey(
        keyringPath: String, logger: Logger, attempt: Int = 0
    ) throws(SessionStoreError) -> Result<KeyringKey, SessionStoreError> {
        let source = self
        let bytes: [UInt8]?
        do {
            bytes = try GuardedFile.contents(of: source.path, rules: source.rules)
        } catch {
            switch error {
            case .unsafe(let message): throw SessionStoreError(.unsafe, message)
            case .unreadable(let problem): return unreadable(keyringPath, "cannot be opened: its \(source) \(problem)")
            }
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
            // The credential vanished between `resolve` and this read: systemd did not pass it.
            throw SessionStoreError(
                .unsafe,
                "The \(source) disappeared while sesamed started. Check LoadCredential= or LoadCredentialEncrypted= "
                    + "for keyring.key in the unit.")
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
        // Something appeared between our read and our link: read it once more (a key made by
        // a racing start is used; anything else is refused there), never loop.
        guard attempt == 0 else {
            throw SessionStoreError(
                .unsafe, "The keyring key \(keyPath) keeps appearing and vanishing while sesamed creates it. Remove it."
            )
        }
        return try loadOrCreateKey(keyringPath: keyringPath, logger: logger, attempt: attempt + 1)
    }

    /// What the key's file must be.
    private var rules: GuardedFile.Rules {
        switch self {
        case .credential: .credential
        case .file: .keyFile
        }
    }

    private func unreadable(_ keyringPath: String, _ problem: String) -> Result<KeyringKey, SessionStoreError> {
        .failure(
            SessionStoreError(
                .unreadable, EncryptedFileSessionStore.unreadableMessage(path: keyringPath, problem: problem)))
    }
}
