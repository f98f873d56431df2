import Foundation

/// Reads and writes export directories in the Firebase emulators' layout:
/// `firebase-export-metadata.json`, `auth_export/accounts.json`, `auth_export/config.json`,
/// `database_export/<namespace>.json`.
enum EmulatorSnapshot {
    static func write(to directory: String, auth: AccountStore, database: DatabaseState) async throws {
        let (accounts, config) = await auth.exportSnapshot()
        let trees = await database.trees
        let root = URL(fileURLWithPath: directory)
        do {
            let fm = FileManager.default
            try fm.createDirectory(at: root.appendingPathComponent("auth_export"), withIntermediateDirectories: true)
            try fm.createDirectory(
                at: root.appendingPathComponent("database_export"), withIntermediateDirectories: true)
            let metadata: JSON = [
                "version": "sesame-emulator",
                "auth": ["version": "sesame-emulator", "path": "auth_export"],
                "database": ["version": "sesame-emulator", "path": "database_export"],
            ]
            try Data(metadata.serializedBytes()).write(
                to: root.appendingPathComponent("firebase-export-metadata.json"), options: .atomic)
            try Data(JSON.encodedBytes(accounts)).write(
                to: root.appendingPathComponent("auth_export/accounts.json"), options: .atomic)
            try Data(config.serializedBytes()).write(
                to: root.appendingPathComponent("auth_export/config.json"), options: .atomic)
            for (namespace, tree) in trees {
                let file = root.appendingPathComponent("database_export/\(namespace).json")
                try Data(tree.serializedBytes()).write(to: file, options: .atomic)
            }
        } catch {
            throw SesameEmulatorError("cannot export to \(directory): \(error)")
        }
    }

    static func read(from directory: String, auth: AccountStore, database: DatabaseState) async throws {
        let snapshot = try load(directory)
        if let accounts = snapshot.accounts {
            await auth.importSnapshot(accounts: accounts, config: snapshot.config)
        }
        await database.replaceAll(snapshot.trees)
    }

    /// The parsed contents of an export directory.
    struct Contents {
        var accounts: JSON?
        var config: JSON?
        var trees: [String: JSON] = [:]
    }

    /// Reads and parses an export directory (synchronously, before any actor is touched).
    static func load(_ directory: String) throws -> Contents {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw SesameEmulatorError("import directory \(directory) does not exist")
        }
        let root = URL(fileURLWithPath: directory)
        var contents = Contents()
        contents.accounts = try parseFile(root.appendingPathComponent("auth_export/accounts.json"))
        contents.config = try parseFile(root.appendingPathComponent("auth_export/config.json"))
        let databaseDirectory = root.appendingPathComponent("database_export")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: databaseDirectory.path)) ?? []
        for file in files where file.hasSuffix(".json") {
            guard let tree = try parseFile(databaseDirectory.appendingPathComponent(file)) else { continue }
            do {
                contents.trees[String(file.dropLast(5))] = try DatabaseValue.normalize(tree, now: 0)
            } catch {
                throw SesameEmulatorError("cannot import database_export/\(file): \(error.message)")
            }
        }
        return contents
    }

    /// The JSON in `url`, `nil` when the file does not exist.
    static func parseFile(_ url: URL) throws -> JSON? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try JSON.parse(Array(try Data(contentsOf: url)))
        } catch {
            throw SesameEmulatorError("cannot import \(url.path): \(error)")
        }
    }
}
