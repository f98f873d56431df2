import Crypto
import Foundation
import SesameCore
import Testing

@testable import SesameKeyring

/// Hostile files where the keyring lives (red-team findings of issue #25): links, FIFOs,
/// foreign owners, loose modes, huge files. Each is refused with `.unsafe` (the daemon's 78)
/// or `.unreadable` (65), at once, naming the file; nothing is followed, replaced or created.
@Suite struct KeyringHostileFilesTests {
    /// A temporary directory whose `state` subdirectory (0700) holds the keyring.
    struct Rig {
        let directory = TemporaryDirectory()
        var state: String { directory.path + "/state" }
        var keyring: String { directory.keyringPath }
        var key: String { state + "/keyring.key" }

        init() { mkdir(directory.path + "/state", 0o700) }

        func open(environment: [String: String] = [:]) throws(SessionStoreError) -> EncryptedFileSessionStore {
            try EncryptedFileSessionStore.open(path: keyring, environment: environment)
        }

        /// `open` must throw `kind` with a message naming `path` and containing `phrase`.
        func expectOpenRefused(
            _ kind: SessionStoreError.Kind, _ path: String, _ phrase: String, environment: [String: String] = [:]
        ) {
            do {
                let store = try open(environment: environment)
                Issue.record("opened although \(path) is hostile")
                Task { await store.close() }
            } catch {
                #expect(error.kind == kind, "\(error.message)")
                #expect(error.message.contains(path), "\(error.message)")
                #expect(error.message.contains(phrase), "\(error.message)")
            }
        }

        /// `load` (and then `save`) must throw `kind` naming `path` and containing `phrase`.
        func expectLoadRefused(_ kind: SessionStoreError.Kind, _ path: String, _ phrase: String) async throws {
            let store = try open()
            let error = try #require(await #expect(throws: SessionStoreError.self) { try await store.load() })
            #expect(error.kind == kind, "\(error.message)")
            #expect(error.message.contains(path), "\(error.message)")
            #expect(error.message.contains(phrase), "\(error.message)")
            let saveError = await #expect(throws: SessionStoreError.self) { try await store.save(Fixtures.anonymous) }
            #expect(saveError == error)
            await store.close()
        }

        static func isLink(_ path: String) -> Bool {
            var info = stat()
            return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
        }

        static func exists(_ path: String) -> Bool {
            var info = stat()
            return lstat(path, &info) == 0
        }
    }

    @Test func danglingKeySymlinkIsRefusedNotFollowedInALoop() {
        let rig = Rig()
        defer { rig.directory.remove() }
        symlink(rig.directory.path + "/nowhere", rig.key)
        rig.expectOpenRefused(.unsafe, rig.key, "symbolic link")
        #expect(!Rig.exists(rig.directory.path + "/nowhere"))
    }

    @Test func danglingCredentialIsRefusedWithoutATrap() {
        let rig = Rig()
        defer { rig.directory.remove() }
        let credentials = rig.directory.path + "/credentials"
        mkdir(credentials, 0o700)
        symlink(rig.directory.path + "/nowhere", credentials + "/keyring.key")
        rig.expectOpenRefused(
            .unsafe, credentials + "/keyring.key", "symbolic link", environment: ["CREDENTIALS_DIRECTORY": credentials])
    }

    @Test func fifoKeyIsRefusedWithoutBlocking() {
        let rig = Rig()
        defer { rig.directory.remove() }
        mkfifo(rig.key, 0o600)
        rig.expectOpenRefused(.unsafe, rig.key, "a FIFO, not a regular file")
    }

    @Test func fifoKeyringIsRefusedWithoutBlocking() async throws {
        let rig = Rig()
        defer { rig.directory.remove() }
        mkfifo(rig.keyring, 0o600)
        try await rig.expectLoadRefused(.unsafe, rig.keyring, "a FIFO, not a regular file")
    }

    @Test func keyringOverOneMebibyteIsUnreadable() async throws {
        let rig = Rig()
        defer { rig.directory.remove() }
        try TemporaryDirectory.write([UInt8](repeating: 0x41, count: (1 << 20) + 1), to: rig.keyring)
        try await rig.expectLoadRefused(.unreadable, rig.keyring, "larger than any keyring")
    }

    @Test func keyOverFourKibibytesIsUnreadable() async throws {
        let rig = Rig()
        defer { rig.directory.remove() }
        try TemporaryDirectory.write([UInt8](repeating: 0x41, count: 4097), to: rig.key)
        try await rig.expectLoadRefused(.unreadable, rig.keyring, "larger than any keyring key")
    }

    @Test(arguments: [false, true])
    func keyringSymlinkIsRefusedAndNeverReplaced(dangling: Bool) async throws {
        let rig = Rig()
        defer { rig.directory.remove() }
        let target = rig.directory.path + "/elsewhere"
        if !dangling { try TemporaryDirectory.write(Array("theirs".utf8), to: target) }
        symlink(target, rig.keyring)
        try await rig.expectLoadRefused(.unsafe, rig.keyring, "symbolic link")
        #expect(Rig.isLink(rig.keyring))
        #expect(TemporaryDirectory.bytes(target) == (dangling ? nil : Array("theirs".utf8)))
    }

    @Test func groupWritableKeyringIsRefused() async throws {
        let rig = Rig()
        defer { rig.directory.remove() }
        let writer = try rig.open()
        try await writer.save(Fixtures.anonymous)
        await writer.close()
        chmod(rig.keyring, 0o660)
        try await rig.expectLoadRefused(.unsafe, rig.keyring, "chmod go-w")
    }

    @Test(arguments: [0o777 as mode_t, 0o770, 0o1777])
    func writableStateDirectoryIsRefused(mode: mode_t) {
        let rig = Rig()
        defer { rig.directory.remove() }
        chmod(rig.state, mode)
        rig.expectOpenRefused(.unsafe, rig.state, "chmod 0700")
        #expect(!Rig.exists(rig.key) && !Rig.exists(rig.keyring + ".lock"), "nothing is created in it")
    }

    @Test func foreignStateDirectoryIsRefused() throws {
        let rig = Rig()
        defer { rig.directory.remove() }
        try #require(chown(rig.state, 65_534, 65_534) == 0, "giving the directory away needs root")
        rig.expectOpenRefused(.unsafe, rig.state, "belongs to uid 65534")
    }

    @Test("0755 (make run, systemd's default StateDirectoryMode) and a link to a 0700 directory (DynamicUser) are fine")
    func usualStateDirectoriesAreAccepted() async throws {
        let rig = Rig()
        defer { rig.directory.remove() }
        chmod(rig.state, 0o755)
        let store = try rig.open()
        try await store.save(Fixtures.anonymous)
        await store.close()
        let linked = rig.directory.path + "/linked"
        symlink(rig.state, linked)
        chmod(rig.state, 0o700)
        let again = try EncryptedFileSessionStore.open(path: linked + "/keyring", environment: [:])
        #expect(try await again.load() == Fixtures.anonymous)
        await again.close()
    }

    @Test(arguments: [0o640 as mode_t, 0o604, 0o644])
    func keyReadableByOthersIsRefused(mode: mode_t) {
        let rig = Rig()
        defer { rig.directory.remove() }
        try? TemporaryDirectory.write(KeyringFiles.randomKeyBytes(), to: rig.key)
        chmod(rig.key, mode)
        rig.expectOpenRefused(.unsafe, rig.key, "chmod 0600")
    }

    @Test("a credential may be group-readable (systemd's ACL mask), never world-readable")
    func credentialModes() async throws {
        let rig = Rig()
        defer { rig.directory.remove() }
        let credentials = rig.directory.path + "/credentials"
        mkdir(credentials, 0o700)
        let path = credentials + "/keyring.key"
        try TemporaryDirectory.write(KeyringFiles.randomKeyBytes(), to: path)
        chmod(path, 0o440)
        let store = try rig.open(environment: ["CREDENTIALS_DIRECTORY": credentials])
        #expect(try await store.load() == nil)
        await store.close()
        chmod(path, 0o444)
        rig.expectOpenRefused(.unsafe, path, "chmod 0600", environment: ["CREDENTIALS_DIRECTORY": credentials])
    }

    @Test func lockSymlinkIsNotFollowed() {
        let rig = Rig()
        defer { rig.directory.remove() }
        let victim = rig.directory.path + "/victim"
        symlink(victim, rig.keyring + ".lock")
        rig.expectOpenRefused(.unsafe, rig.keyring + ".lock", "symbolic link")
        #expect(!Rig.exists(victim))
    }

    @Test("a keyring written with an absurd token expiry loads, capped at year 9999")
    func absurdStoredExpiryLoads() async throws {
        let rig = Rig()
        defer { rig.directory.remove() }
        let writer = try rig.open()
        try await writer.save(Fixtures.anonymous)
        await writer.close()
        let key = SymmetricKey(data: try #require(TemporaryDirectory.bytes(rig.key)))
        var json = String(decoding: try JSONEncoder().encode(Fixtures.anonymous), as: UTF8.self)
        let expiry = try #require(json.range(of: #""expiresAt":[-0-9.e+]+"#, options: .regularExpression))
        json.replaceSubrange(expiry, with: #""expiresAt":1e21"#)
        try TemporaryDirectory.write(try KeyringFiles.sealed(Array(json.utf8), key: key), to: rig.keyring)
        let store = try rig.open()
        let state = try #require(try await store.load())
        #expect(state.session?.idToken.expiresAt == IDToken.latestExpiry)
        await store.close()
    }
}
