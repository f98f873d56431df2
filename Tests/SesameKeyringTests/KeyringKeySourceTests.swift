import Crypto
import Foundation
import SesameCore
import Testing

@testable import SesameKeyring

/// Where the key comes from: the systemd credential, or a key file made on first start.
@Suite struct KeyringKeySourceTests {
    @Test func parsesRawAndHexKeys() throws {
        let raw = KeyringFiles.randomKeyBytes()
        let hex = KeyringFiles.hex(raw)
        let fromRaw = try #require(KeyringKey(fileBytes: raw))
        for text in [hex, hex + "\n", hex.uppercased(), hex.uppercased() + "\n"] {
            let key = try #require(KeyringKey(fileBytes: Array(text.utf8)))
            #expect(key.symmetricKey == fromRaw.symmetricKey)
        }
        for bad in [hex + "\n\n", String(hex.dropLast()), hex + " ", "zz" + hex.dropFirst(2), "", hex + hex] {
            #expect(KeyringKey(fileBytes: Array(bad.utf8)) == nil, "accepted \(bad.debugDescription)")
        }
        #expect(KeyringKey(fileBytes: Array(raw.prefix(31))) == nil)
        #expect(KeyringKey(fileBytes: raw + [10]) == nil)
        #expect("\(fromRaw)" == "KeyringKey(redacted)")
    }

    @Test(arguments: [false, true])
    func credentialIsUsed(hex: Bool) async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let credentials = "\(directory.path)/credentials"
        let raw = KeyringFiles.randomKeyBytes()
        try TemporaryDirectory.write(
            hex ? Array((KeyringFiles.hex(raw) + "\n").utf8) : raw, to: "\(credentials)/keyring.key")
        let environment = ["CREDENTIALS_DIRECTORY": credentials]

        let store = try EncryptedFileSessionStore.open(path: directory.keyringPath, environment: environment)
        #expect(store.keySource == .credential(path: "\(credentials)/keyring.key"))
        try await store.save(Fixtures.busy)
        await store.close()

        // No key file was made beside the keyring, and the file opens with the credential's key.
        let state = (directory.keyringPath as NSString).deletingLastPathComponent
        #expect(!FileManager.default.fileExists(atPath: "\(state)/keyring.key"))
        let bytes = try #require(TemporaryDirectory.bytes(directory.keyringPath))
        let payload = try KeyringFormat.open(bytes, with: SymmetricKey(data: raw))
        #expect(try JSONDecoder().decode(PersistedState.self, from: payload) == Fixtures.busy)

        let reopened = try EncryptedFileSessionStore.open(path: directory.keyringPath, environment: environment)
        #expect(try await reopened.load() == Fixtures.busy)
        await reopened.close()
    }

    @Test func credentialsDirectoryWithoutTheKeyFallsBackToTheKeyFile() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let credentials = "\(directory.path)/credentials"
        try FileManager.default.createDirectory(atPath: credentials, withIntermediateDirectories: true)
        let store = try EncryptedFileSessionStore.open(
            path: directory.keyringPath, environment: ["CREDENTIALS_DIRECTORY": credentials])
        let state = (directory.keyringPath as NSString).deletingLastPathComponent
        #expect(store.keySource == .file(path: "\(state)/keyring.key"))
        await store.close()
    }

    @Test func keyFileMadeOnceAndKept() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let state = (directory.keyringPath as NSString).deletingLastPathComponent
        let first = try EncryptedFileSessionStore.open(path: directory.keyringPath, environment: [:])
        await first.close()
        let key = try #require(TemporaryDirectory.bytes("\(state)/keyring.key"))
        #expect(TemporaryDirectory.mode("\(state)/keyring.key") == 0o600)
        let second = try EncryptedFileSessionStore.open(path: directory.keyringPath, environment: [:])
        await second.close()
        #expect(TemporaryDirectory.bytes("\(state)/keyring.key") == key)
    }

    @Test func hexKeyFileBesideTheKeyringWorks() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let state = (directory.keyringPath as NSString).deletingLastPathComponent
        let raw = KeyringFiles.randomKeyBytes()
        try TemporaryDirectory.write(Array(KeyringFiles.hex(raw).utf8), to: "\(state)/keyring.key")
        let store = try EncryptedFileSessionStore.open(path: directory.keyringPath, environment: [:])
        try await store.save(Fixtures.anonymous)
        await store.close()
        let bytes = try #require(TemporaryDirectory.bytes(directory.keyringPath))
        _ = try KeyringFormat.open(bytes, with: SymmetricKey(data: raw))
    }
}
