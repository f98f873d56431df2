import Crypto
import Foundation
import SesameCore
import Testing

@testable import SesameKeyring

/// A keyring that exists but cannot be read is an error that never destroys the file.
@Suite struct KeyringUnreadableTests {
    /// Writes a good keyring, lets `damage` change the files, then checks that load and save
    /// fail with `.unreadable`, the message names the file and the recovery, and the keyring
    /// bytes are untouched.
    private func expectUnreadable(
        _ expectedPhrase: String, damage: (_ keyringPath: String, _ keyPath: String) throws -> Void
    ) async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.keyringPath
        let keyPath = "\((path as NSString).deletingLastPathComponent)/keyring.key"
        let writer = try EncryptedFileSessionStore.open(path: path, environment: [:])
        try await writer.save(Fixtures.busy)
        await writer.close()
        try damage(path, keyPath)
        let before = TemporaryDirectory.bytes(path)

        let store = try EncryptedFileSessionStore.open(path: path, environment: [:])
        let loadError = try #require(await #expect(throws: SessionStoreError.self) { try await store.load() })
        #expect(loadError.kind == .unreadable)
        #expect(loadError.message.contains(path))
        #expect(loadError.message.contains("Restore the key, or move the file aside to start afresh"))
        #expect(loadError.message.contains(expectedPhrase), "\(loadError.message)")
        let saveError = await #expect(throws: SessionStoreError.self) { try await store.save(Fixtures.anonymous) }
        #expect(saveError == loadError)
        await store.close()
        #expect(TemporaryDirectory.bytes(path) == before)

        // A fresh store that saves without loading first must refuse as well.
        let blind = try EncryptedFileSessionStore.open(path: path, environment: [:])
        let blindError = await #expect(throws: SessionStoreError.self) { try await blind.save(Fixtures.anonymous) }
        #expect(blindError?.kind == .unreadable)
        await blind.close()
        #expect(TemporaryDirectory.bytes(path) == before)
    }

    @Test func wrongKey() async throws {
        try await expectUnreadable("cannot be decrypted") { _, keyPath in
            try TemporaryDirectory.write(KeyringFiles.randomKeyBytes(), to: keyPath)
        }
    }

    @Test(arguments: [0, 1, 8, 9, 36, 100])
    func truncated(to length: Int) async throws {
        try await expectUnreadable(length < 37 ? "is not a sesame keyring" : "cannot be decrypted") { path, _ in
            let bytes = try #require(TemporaryDirectory.bytes(path))
            try TemporaryDirectory.write(Array(bytes.prefix(length)), to: path)
        }
    }

    @Test(arguments: [0, 8, 9, 20, 60])
    func garbledByte(at offset: Int) async throws {
        try await expectUnreadable(
            offset < 8 ? "is not a sesame keyring" : offset == 8 ? "format version" : "cannot be decrypted"
        ) {
            path, _ in
            var bytes = try #require(TemporaryDirectory.bytes(path))
            bytes[offset] ^= 0x5A
            try TemporaryDirectory.write(bytes, to: path)
        }
    }

    @Test func futureVersionWithValidSeal() async throws {
        try await expectUnreadable("format version 7") { path, keyPath in
            let key = SymmetricKey(data: try #require(TemporaryDirectory.bytes(keyPath)))
            try TemporaryDirectory.write(try KeyringFiles.sealed(Array("{}".utf8), key: key, version: 7), to: path)
        }
    }

    @Test func authenticPayloadThatIsNotAState() async throws {
        try await expectUnreadable("does not hold a session") { path, keyPath in
            let key = SymmetricKey(data: try #require(TemporaryDirectory.bytes(keyPath)))
            try TemporaryDirectory.write(try KeyringFiles.sealed(Array("[1,2]".utf8), key: key), to: path)
        }
    }

    @Test func missingKeyForExistingKeyring() async throws {
        try await expectUnreadable("is missing") { _, keyPath in
            try FileManager.default.removeItem(atPath: keyPath)
        }
    }

    @Test func missingKeyIsNotRecreated() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.keyringPath
        let keyPath = "\((path as NSString).deletingLastPathComponent)/keyring.key"
        let writer = try EncryptedFileSessionStore.open(path: path, environment: [:])
        try await writer.save(Fixtures.anonymous)
        await writer.close()
        try FileManager.default.removeItem(atPath: keyPath)
        let store = try EncryptedFileSessionStore.open(path: path, environment: [:])
        await #expect(throws: SessionStoreError.self) { try await store.load() }
        await store.close()
        #expect(!FileManager.default.fileExists(atPath: keyPath))
    }

    @Test func malformedKeyFile() async throws {
        try await expectUnreadable("malformed") { _, keyPath in
            try TemporaryDirectory.write(Array("not a key\n".utf8), to: keyPath)
        }
    }

    @Test func unreadableFileIsNotTakenForSignedOut() async throws {
        // Existing but empty: not "nothing stored".
        try await expectUnreadable("is not a sesame keyring") { path, _ in
            try TemporaryDirectory.write([], to: path)
        }
    }
}
