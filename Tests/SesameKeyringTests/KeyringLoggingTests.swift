import Foundation
import Logging
import SesameCore
import Testing

@testable import SesameKeyring

/// The store logs what it does, never the key or the plaintext.
@Suite struct KeyringLoggingTests {
    @Test func logsNeitherKeyNorPayload() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let records = LogRecords()
        let logger = Logger(label: "test") { _ in RecordingLogHandler(records: records) }

        let store = try EncryptedFileSessionStore.open(path: directory.keyringPath, environment: [:], logger: logger)
        try await store.save(Fixtures.busy)
        try await store.save(Fixtures.busy)
        _ = try await store.load()
        await store.close()
        let keyPath = "\((directory.keyringPath as NSString).deletingLastPathComponent)/keyring.key"
        let key = try #require(TemporaryDirectory.bytes(keyPath))
        try TemporaryDirectory.write(KeyringFiles.randomKeyBytes(), to: keyPath)
        let wrong = try EncryptedFileSessionStore.open(path: directory.keyringPath, environment: [:], logger: logger)
        _ = try? await wrong.load()
        await wrong.close()

        let text = records.all.joined(separator: "\n")
        #expect(text.contains("keyring opened"))
        #expect(text.contains("keyring written"))
        #expect(text.contains(directory.keyringPath))
        for secret in ["refresh-secret", "ana@example.com", "eyJ.header", KeyringFiles.hex(key)] {
            #expect(!text.contains(secret), "log contains \(secret)")
        }
    }
}

/// Every record as one line: level, message, sorted metadata.
private final class LogRecords: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}

private struct RecordingLogHandler: LogHandler {
    let records: LogRecords
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        records.append(
            "\(event.level) \(event.message) "
                + merged.keys.sorted().map { "\($0)=\(merged[$0]!)" }.joined(separator: " "))
    }
}
