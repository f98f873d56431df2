import Foundation
import SesameLocalAPI

/// Reads and writes export directories in the Firebase emulators' layout:
/// `firebase-export-metadata.json`, `auth_export/accounts.json`, `auth_export/config.json`,
/// `database_export/<namespace>.json`; plus, when Supabase is served, Sesame's own
/// `supabase_export/state.json`. Every file is replaced atomically and durably (``DataDirectoryFiles``).
enum EmulatorSnapshot {
    static let supabasePath = "supabase_export/state.json"
    static let databaseDirectory = "database_export"

    /// The files of a snapshot of the emulator's state, by path relative to the directory.
    static func files(auth: AccountStore, database: DatabaseState, supabase: GoTrueStore?) async -> [String: [UInt8]] {
        let (accounts, config) = await auth.exportSnapshot()
        let metadata: JSONValue = [
            "version": "sesame-emulator",
            "auth": ["version": "sesame-emulator", "path": "auth_export"],
            "database": ["version": "sesame-emulator", "path": "database_export"],
        ]
        var files: [String: [UInt8]] = [
            "firebase-export-metadata.json": metadata.serialized(),
            "auth_export/accounts.json": JSONCoding.encodedBytes(accounts),
            "auth_export/config.json": config.serialized(),
        ]
        for (namespace, tree) in await database.trees {
            files["\(databaseDirectory)/\(namespace).json"] = tree.serialized()
        }
        if let supabase { files[supabasePath] = JSONCoding.encodedBytes(await supabase.exportSnapshot()) }
        if let key = supabase?.jwt.signingKey { files[SupabaseSigningKey.path] = JSONCoding.encodedBytes(key) }
        return files
    }

    /// Writes the files that differ from `previous` into `directory` (created when needed), and
    /// removes database namespaces that are no longer in `files`.
    static func write(
        _ files: [String: [UInt8]], to directory: String, previous: [String: [UInt8]] = [:]
    ) throws(SesameEmulatorError) {
        do {
            try DataDirectoryFiles.makeDirectory(directory)
            for (path, bytes) in files.sorted(by: { $0.key < $1.key }) where previous[path] != bytes {
                try DataDirectoryFiles.makeDirectory(DataDirectoryFiles.directoryName(of: "\(directory)/\(path)"))
                try DataDirectoryFiles.replace("\(directory)/\(path)", with: bytes)
            }
            for name in DataDirectoryFiles.entries(of: "\(directory)/\(databaseDirectory)")
            where name.hasSuffix(".json") && files["\(databaseDirectory)/\(name)"] == nil {
                try DataDirectoryFiles.remove("\(directory)/\(databaseDirectory)/\(name)")
            }
        } catch {
            throw SesameEmulatorError("cannot save to \(directory): \(error.message)")
        }
    }

    static func write(
        to directory: String, auth: AccountStore, database: DatabaseState, supabase: GoTrueStore?
    ) async throws {
        try write(await files(auth: auth, database: database, supabase: supabase), to: directory)
    }

    static func read(
        from directory: String, auth: AccountStore, database: DatabaseState, supabase: GoTrueStore?
    ) async throws {
        let snapshot = try load(directory)
        if let accounts = snapshot.accounts { await auth.importSnapshot(accounts: accounts, config: snapshot.config) }
        await database.replaceAll(snapshot.trees)
        if let supabase, let state = snapshot.supabase { await supabase.importSnapshot(state) }
    }

    /// The parsed contents of an export directory.
    struct Contents {
        var accounts: JSONValue?
        var config: JSONValue?
        var trees: [String: JSONValue] = [:]
        var supabase: GoTrueSnapshot?
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
        let databaseDirectory = root.appendingPathComponent(databaseDirectory)
        for file in DataDirectoryFiles.entries(of: databaseDirectory.path) where file.hasSuffix(".json") {
            guard let tree = try parseFile(databaseDirectory.appendingPathComponent(file)) else { continue }
            do {
                contents.trees[String(file.dropLast(5))] = try DatabaseValue.normalize(tree, now: 0)
            } catch {
                throw SesameEmulatorError("cannot import database_export/\(file): \(error.message)")
            }
        }
        contents.supabase = try readFile(root.appendingPathComponent(supabasePath)) {
            try JSONDecoder().decode(GoTrueSnapshot.self, from: $0)
        }
        return contents
    }

    /// The JSON in `url`, `nil` when the file does not exist.
    static func parseFile(_ url: URL) throws -> JSONValue? { try readFile(url) { try JSONCoding.parse(Array($0)) } }

    /// The contents of `url` as `decode` reads them, `nil` when the file does not exist.
    static func readFile<T>(_ url: URL, _ decode: (Data) throws -> T) throws -> T? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try decode(Data(contentsOf: url))
        } catch {
            throw SesameEmulatorError("cannot import \(url.path): \(error)")
        }
    }
}
