import Foundation
import SesameCore
import Testing

@testable import SesameKeyring

/// Round trips, write skipping, modes and the close contract.
@Suite struct EncryptedFileSessionStoreTests {
    @Test func emptyKeyringLoadsAsNil() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try EncryptedFileSessionStore.open(path: directory.keyringPath, environment: [:])
        #expect(try await store.load() == nil)
        #expect(!FileManager.default.fileExists(atPath: directory.keyringPath))
        await store.close()
    }

    @Test func roundTripAcrossReopen() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let first = try EncryptedFileSessionStore.open(path: directory.keyringPath, environment: [:])
        try await first.save(Fixtures.busy)
        #expect(try await first.load() == Fixtures.busy)
        await first.close()

        let second = try EncryptedFileSessionStore.open(path: directory.keyringPath, environment: [:])
        #expect(try await second.load() == Fixtures.busy)
        try await second.save(Fixtures.anonymous)
        await second.close()

        let third = try EncryptedFileSessionStore.open(path: directory.keyringPath, environment: [:])
        #expect(try await third.load() == Fixtures.anonymous)
        await third.close()
    }

    @Test func fileStartsWithVersionedHeaderAndHidesThePayload() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try EncryptedFileSessionStore.open(path: directory.keyringPath, environment: [:])
        try await store.save(Fixtures.busy)
        await store.close()
        let bytes = try #require(TemporaryDirectory.bytes(directory.keyringPath))
        #expect(Array(bytes.prefix(9)) == Array("SESAMEKR".utf8) + [1])
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.contains("refresh-secret"))
        #expect(!text.contains("ana@example.com"))
    }

    @Test func keyringKeyAndDirectoryArePrivate() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try EncryptedFileSessionStore.open(path: directory.keyringPath, environment: [:])
        try await store.save(Fixtures.anonymous)
        await store.close()
        let state = (directory.keyringPath as NSString).deletingLastPathComponent
        #expect(TemporaryDirectory.mode(state) == 0o700)
        #expect(TemporaryDirectory.mode(directory.keyringPath) == 0o600)
        #expect(TemporaryDirectory.mode("\(state)/keyring.key") == 0o600)
        #expect(TemporaryDirectory.bytes("\(state)/keyring.key")?.count == 32)
        #expect(TemporaryDirectory.mode("\(directory.keyringPath).lock") == 0o600)
    }

    @Test func unchangedStateIsNotRewritten() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try EncryptedFileSessionStore.open(path: directory.keyringPath, environment: [:])
        try await store.save(Fixtures.busy)
        let before = try inode(directory.keyringPath)
        try await store.save(Fixtures.busy)
        #expect(try inode(directory.keyringPath) == before)
        try await store.save(Fixtures.anonymous)
        #expect(try inode(directory.keyringPath) != before)
        await store.close()

        // After a reopen, saving what was loaded is skipped too.
        let reopened = try EncryptedFileSessionStore.open(path: directory.keyringPath, environment: [:])
        let loadedInode = try inode(directory.keyringPath)
        try await reopened.save(Fixtures.anonymous)
        #expect(try inode(directory.keyringPath) == loadedInode)
        await reopened.close()
    }

    @Test func closedStoreRefusesAndReleasesTheLock() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try EncryptedFileSessionStore.open(path: directory.keyringPath, environment: [:])
        await store.close()
        await store.close()
        await #expect(throws: SessionStoreError.self) { try await store.load() }
        let error = await #expect(throws: SessionStoreError.self) { try await store.save(Fixtures.anonymous) }
        #expect(error?.kind == .io)
        let again = try EncryptedFileSessionStore.open(path: directory.keyringPath, environment: [:])
        await again.close()
    }

    @Test func leftoverTemporaryFilesAreRemovedOnOpen() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try EncryptedFileSessionStore.open(path: directory.keyringPath, environment: [:])
        try await store.save(Fixtures.anonymous)
        await store.close()
        let leftover = "\(directory.keyringPath).tmp-1234-5678"
        try TemporaryDirectory.write([1, 2, 3], to: leftover)
        let reopened = try EncryptedFileSessionStore.open(path: directory.keyringPath, environment: [:])
        #expect(!FileManager.default.fileExists(atPath: leftover))
        #expect(try await reopened.load() == Fixtures.anonymous)
        await reopened.close()
    }

    private func inode(_ path: String) throws -> UInt {
        var info = stat()
        guard stat(path, &info) == 0 else { throw POSIXError(.ENOENT) }
        return UInt(info.st_ino)
    }
}
