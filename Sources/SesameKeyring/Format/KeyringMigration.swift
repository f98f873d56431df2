import Foundation

/// One named step that turns the plaintext payload of format version `from` into that of
/// version `from + 1`.
///
/// Migrations run after decryption, oldest first, on the way in; the store always writes
/// ``KeyringFormat/currentVersion``. To change the format: bump the current version, add a
/// migration from the old version to ``all``, and keep every older migration forever.
struct KeyringMigration: Sendable {
    /// A name for logs and errors, e.g. `"v1-to-v2: rename tokens"`.
    var name: String
    /// The version this step reads; it produces `from + 1`.
    var from: UInt8
    /// The transformation of the plaintext payload.
    var transform: @Sendable (Data) throws -> Data

    /// Every migration, in order. Version 1 is the first format, so there are none yet.
    static let all: [KeyringMigration] = []

    /// Applies the migrations that start at or after `version`, in ascending `from` order.
    /// - Throws: ``KeyringFormat/Failure/migrationFailed(name:)`` naming the failing step.
    static func apply(
        _ migrations: [KeyringMigration], to payload: Data, from version: UInt8
    ) throws(KeyringFormat.Failure) -> Data {
        var current = payload
        for migration in migrations.sorted(by: { $0.from < $1.from }) where migration.from >= version {
            do {
                current = try migration.transform(current)
            } catch {
                throw .migrationFailed(name: migration.name)
            }
        }
        return current
    }
}
