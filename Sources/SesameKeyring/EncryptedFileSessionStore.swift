import Crypto
import Foundation
import Logging
import SesameCore

/// The keyring: ``PersistedState`` as JSON, sealed with AES-256-GCM in a versioned file (see
/// ``KeyringFormat``), replaced atomically and durably, and locked against a second daemon.
///
/// Lifecycle: ``open(path:environment:logger:)`` takes an exclusive `flock` on `<path>.lock`
/// and holds it until ``close()`` (or process exit). The key is chosen by ``KeyringKeySource``;
/// a key file is created only while no keyring exists.
///
/// Invariants:
/// - A keyring that exists but cannot be read (bad bytes, wrong, missing or malformed key,
///   unknown version) makes ``load()`` throw ``SessionStoreError/Kind/unreadable``, and every
///   later ``save(_:)`` throws the same error: the file is never overwritten or removed.
/// - ``save(_:)`` on a store that was never loaded loads first, so the rule above holds.
/// - ``save(_:)`` skips the write when the state equals the last one read or written.
/// - Neither the key nor the plaintext is ever logged.
///
/// The actor isolates all file access; its blocking system calls run on the cooperative pool,
/// never on a NIO event loop, and are short (a few small reads, or one write and two fsyncs).
public actor EncryptedFileSessionStore: SessionStore {
    /// The keyring file.
    public nonisolated let path: String
    /// Where the key came from.
    public nonisolated let keySource: KeyringKeySource
    /// The lock file beside the keyring.
    public nonisolated var lockPath: String { Self.lockPath(for: path) }

    private let lock: FileLock
    private let key: Result<KeyringKey, SessionStoreError>
    private var verdict: Verdict = .notLoaded
    private let logger: Logger

    /// What the store knows about the file on disk.
    private enum Verdict {
        /// Nothing read yet.
        case notLoaded
        /// The file holds `state` (nil: no file), as read or last written by this store.
        case readable(PersistedState?)
        /// The file exists and must not be touched.
        case unreadable(SessionStoreError)
        /// ``close()`` was called.
        case closed
    }

    private init(
        path: String, keySource: KeyringKeySource, lock: FileLock, key: Result<KeyringKey, SessionStoreError>,
        logger: Logger
    ) {
        self.path = path
        self.keySource = keySource
        self.lock = lock
        self.key = key
        self.logger = logger
    }

    /// The lock file used for the keyring at `path`.
    public static func lockPath(for path: String) -> String { "\(path).lock" }

    /// Opens the keyring at `path`: creates its directory (mode 0700) if missing, takes the
    /// lock, removes temporary files left by a crash, and finds or (with no keyring yet)
    /// creates the key.
    ///
    /// A key that is missing or malformed while the keyring exists is not an error here: it is
    /// reported by ``load()`` as `.unreadable`, and ``save(_:)`` refuses. Runs its few
    /// blocking system calls on the caller's thread (start-up; not on an event loop).
    /// - Parameters:
    ///   - path: the keyring file, e.g. `$STATE_DIRECTORY/keyring`.
    ///   - environment: the process environment; `CREDENTIALS_DIRECTORY` is read.
    ///   - logger: receives `info` on open and `debug` on writes; never secrets. Defaults to
    ///     a logger that drops everything.
    /// - Throws: `.locked` when another open store (in any process) holds the lock; `.io`
    ///   when the directory, lock file or new key file cannot be made; `.unsafe` when the
    ///   directory is not the daemon's or is writable by others (``StateDirectoryCheck``), or
    ///   the lock file or key is a link, not a regular file, not the daemon's, or too open.
    public static func open(
        path: String, environment: [String: String],
        logger: Logger = Logger(label: "sesame.keyring", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws(SessionStoreError) -> EncryptedFileSessionStore {
        let directory = DurableFile.directoryName(of: path)
        do {
            try DurableFile.makeDirectory(directory, mode: 0o700)
        } catch {
            throw SessionStoreError(.io, "Cannot create the keyring directory \(directory): \(error).")
        }
        do {
            try StateDirectoryCheck.verify(directory)
        } catch {
            throw error.storeError(keyringPath: path)
        }
        let lock: FileLock
        do {
            lock = try FileLock.acquire(lockPath(for: path))
        } catch {
            switch error {
            case .refused(let refusal):
                throw refusal.storeError(keyringPath: path)
            case .heldElsewhere:
                throw SessionStoreError(
                    .locked,
                    "The keyring \(path) is in use by another process (it holds \(lockPath(for: path))). "
                        + "Stop the other sesamed, or give this one another state directory.")
            case .system(let error):
                throw SessionStoreError(.io, "Cannot lock the keyring \(path): \(error).")
            }
        }
        DurableFile.removeLeftovers(next: path)
        DurableFile.removeLeftovers(next: "\(directory)/\(KeyringKeySource.fileName)")
        let source = KeyringKeySource.resolve(keyringPath: path, environment: environment)
        let key: Result<KeyringKey, SessionStoreError>
        do {
            key = try source.loadOrCreateKey(keyringPath: path, logger: logger)
        } catch {
            lock.release()
            throw error
        }
        logger.info(
            "keyring opened",
            metadata: [
                "keyring.path": "\(path)", "keyring.key_source": "\(source)", "keyring.key_ok": "\(key.isSuccess)",
            ])
        return EncryptedFileSessionStore(path: path, keySource: source, lock: lock, key: key, logger: logger)
    }

    /// The stored state, or nil when there is no keyring file.
    /// - Throws: `.unreadable` (naming the file and how to recover) when the file exists but
    ///   cannot be read, is over 1 MiB, cannot be authenticated, migrated or decoded, or its
    ///   key is missing or malformed; `.unsafe` when the keyring path is a symbolic link
    ///   (dangling or not: never taken for "no keyring"), not a regular file, not the daemon's
    ///   or writable by others; `.io` after ``close()``.
    public func load() throws(SessionStoreError) -> PersistedState? {
        switch verdict {
        case .closed: throw closedError()
        case .unreadable(let error): throw error
        case .notLoaded, .readable: break
        }
        do {
            let state = try read()
            verdict = .readable(state)
            return state
        } catch {
            verdict = .unreadable(error)
            logger.debug("keyring unreadable", metadata: ["keyring.path": "\(path)"])
            throw error
        }
    }

    /// Durably replaces the keyring with `state` (mode 0600), unless it already holds it.
    /// - Throws: the `.unreadable` error of ``load()`` when the existing file cannot be read
    ///   (nothing is written); `.io` when writing fails (the old file is then intact) or
    ///   after ``close()``.
    public func save(_ state: PersistedState) throws(SessionStoreError) {
        if case .notLoaded = verdict { _ = try load() }
        let last: PersistedState?
        switch verdict {
        case .closed: throw closedError()
        case .unreadable(let error): throw error
        case .notLoaded: preconditionFailure("load() always decides the verdict")
        case .readable(let state): last = state
        }
        if last == state {
            logger.debug("keyring unchanged, write skipped", metadata: ["keyring.path": "\(path)"])
            return
        }
        let bytes: [UInt8]
        do {
            bytes = try KeyringFormat.seal(try Self.encoder.encode(state), with: key.get().symmetricKey)
        } catch {
            throw SessionStoreError(.io, "Cannot encode the session for the keyring \(path).")
        }
        do {
            try DurableFile.makeDirectory(DurableFile.directoryName(of: path), mode: 0o700)
            try DurableFile.replace(path, with: bytes, mode: 0o600)
        } catch {
            throw SessionStoreError(.io, "Cannot write the keyring \(path): \(error). The previous keyring is intact.")
        }
        verdict = .readable(state)
        logger.debug("keyring written", metadata: ["keyring.path": "\(path)", "keyring.bytes": "\(bytes.count)"])
    }

    /// Releases the lock. Later ``load()`` and ``save(_:)`` calls throw `.io`; calling again
    /// does nothing. A new store may then open the same keyring.
    public func close() {
        verdict = .closed
        lock.release()
    }

    // MARK: - Reading

    private func read() throws(SessionStoreError) -> PersistedState? {
        let bytes: [UInt8]?
        do {
            bytes = try GuardedFile.contents(of: path, rules: .keyring)
        } catch {
            throw error.storeError(keyringPath: path)
        }
        let key = try self.key.get()
        guard let bytes else { return nil }
        let payload: Data
        do {
            payload = try KeyringFormat.open(bytes, with: key.symmetricKey)
        } catch {
            switch error {
            case .notAKeyring:
                throw unreadable("is not a sesame keyring (truncated or overwritten: \(bytes.count) bytes)")
            case .unknownVersion(let version):
                throw unreadable(
                    "has format version \(version), which this sesamed cannot read (it reads 1 to \(KeyringFormat.currentVersion))"
                )
            case .authenticationFailed:
                throw unreadable(
                    "cannot be decrypted with the key from the \(keySource) (wrong key, or the file was damaged)")
            case .migrationFailed(let name):
                throw unreadable("cannot be migrated to the current format (step \"\(name)\" failed)")
            }
        }
        do {
            return try Self.decoder.decode(PersistedState.self, from: payload)
        } catch {
            throw unreadable("decrypts but does not hold a session this sesamed understands")
        }
    }

    private func unreadable(_ problem: String) -> SessionStoreError {
        SessionStoreError(.unreadable, Self.unreadableMessage(path: path, problem: problem))
    }

    private func closedError() -> SessionStoreError {
        SessionStoreError(.io, "The keyring \(path) was closed by this process.")
    }

    /// The message for an unreadable keyring: names the file and says how to recover.
    static func unreadableMessage(path: String, problem: String) -> String {
        "The keyring \(path) \(problem). Restore the key, or move the file aside to start afresh; "
            + "sesamed never overwrites it."
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    private static var decoder: JSONDecoder { JSONDecoder() }
}

extension FileRefusal {
    /// The store's error: `.unsafe` with the message as it is, or `.unreadable` with the
    /// keyring's recovery advice.
    func storeError(keyringPath: String) -> SessionStoreError {
        switch self {
        case .unsafe(let message): SessionStoreError(.unsafe, message)
        case .unreadable(let problem):
            SessionStoreError(
                .unreadable, EncryptedFileSessionStore.unreadableMessage(path: keyringPath, problem: problem))
        }
    }
}

extension Result {
    fileprivate var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
