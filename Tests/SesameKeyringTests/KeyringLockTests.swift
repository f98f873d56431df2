import Foundation
import SesameCore
import Testing

@testable import SesameKeyring

/// Two stores never share one keyring.
@Suite struct KeyringLockTests {
    @Test func secondOpenInTheSameProcessIsLocked() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let first = try EncryptedFileSessionStore.open(path: directory.keyringPath, environment: [:])
        let error = #expect(throws: SessionStoreError.self) {
            _ = try EncryptedFileSessionStore.open(path: directory.keyringPath, environment: [:])
        }
        #expect(error?.kind == .locked)
        #expect(error?.message.contains(directory.keyringPath) == true)
        await first.close()
        let second = try EncryptedFileSessionStore.open(path: directory.keyringPath, environment: [:])
        await second.close()
    }

    @Test func anotherProcessHoldingTheKeyringLocksUsOut() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let seed = try EncryptedFileSessionStore.open(path: directory.keyringPath, environment: [:])
        try await seed.save(Fixtures.tagged("initial"))
        await seed.close()

        let writer = try await WriterProcess.start(keyringPath: directory.keyringPath)
        let replaced = try await writer.awaitReplacement(
            of: directory.keyringPath, from: WriterProcess.inode(directory.keyringPath))
        guard replaced else {
            try await writer.kill()
            Issue.record("the writer process never wrote the keyring")
            return
        }
        let error = #expect(throws: SessionStoreError.self) {
            _ = try EncryptedFileSessionStore.open(path: directory.keyringPath, environment: [:])
        }
        #expect(error?.kind == .locked)
        #expect(error?.message.contains(directory.keyringPath) == true)

        // The kernel drops the lock with the process.
        try await writer.kill()
        let after = try EncryptedFileSessionStore.open(path: directory.keyringPath, environment: [:])
        let state = try await after.load()
        #expect(state?.emailLinkAddress?.hasPrefix(WriterProcess.tag) == true)
        await after.close()
    }
}
