import Crypto
import Foundation
import Testing

@testable import SesameKeyring

/// The file format on its own: header, authentication of the header, migrations.
@Suite struct KeyringFormatTests {
    let key = SymmetricKey(size: .bits256)

    @Test func sealThenOpen() throws {
        let payload = Data("{\"a\":1}".utf8)
        let bytes = try KeyringFormat.seal(payload, with: key)
        #expect(bytes.count == 9 + 12 + payload.count + 16)
        #expect(try KeyringFormat.open(bytes, with: key) == payload)
        #expect(try KeyringFormat.open(try KeyringFiles.sealed(Array(payload), key: key), with: key) == payload)
    }

    @Test func headerIsAuthenticated() throws {
        // The same sealed box under a different header fails authentication.
        let bytes = try KeyringFormat.seal(Data("x".utf8), with: key)
        var other = bytes
        other[8] = 0
        #expect(throws: KeyringFormat.Failure.unknownVersion(0)) { try KeyringFormat.open(other, with: key) }
        let migrationless = try KeyringFiles.sealed(Array("x".utf8), key: key, version: 2)
        #expect(throws: KeyringFormat.Failure.unknownVersion(2)) { try KeyringFormat.open(migrationless, with: key) }
    }

    @Test func migrationsRunInOrderFromTheFileVersion() throws {
        let log = MigrationLog()
        let migrations = [
            KeyringMigration(name: "b", from: 2) {
                log.append("b")
                return $0 + Data("b".utf8)
            },
            KeyringMigration(name: "a", from: 1) {
                log.append("a")
                return $0 + Data("a".utf8)
            },
        ]
        let payload = Data("p".utf8)
        #expect(try KeyringMigration.apply(migrations, to: payload, from: 1) == Data("pab".utf8))
        #expect(try KeyringMigration.apply(migrations, to: payload, from: 2) == Data("pb".utf8))
        #expect(try KeyringMigration.apply(migrations, to: payload, from: 3) == payload)
        #expect(log.entries == ["a", "b", "b"])
        let failing = [KeyringMigration(name: "boom", from: 1) { _ in throw CocoaError(.coderInvalidValue) }]
        #expect(throws: KeyringFormat.Failure.migrationFailed(name: "boom")) {
            try KeyringMigration.apply(failing, to: payload, from: 1)
        }
    }

    @Test func noMigrationsForTheFirstFormat() {
        #expect(KeyringMigration.all.isEmpty)
        #expect(KeyringFormat.currentVersion == 1)
    }
}

/// Records migration calls (the closures are `@Sendable`).
private final class MigrationLog: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    func append(_ entry: String) { lock.withLock { storage.append(entry) } }
    var entries: [String] { lock.withLock { storage } }
}
