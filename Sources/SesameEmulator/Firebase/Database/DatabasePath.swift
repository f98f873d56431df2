import SesameLocalAPI

/// A location in a database tree: the keys from the root, validated.
struct DatabasePath: Sendable, Equatable, CustomStringConvertible {
    var keys: [String]

    static let root = DatabasePath(keys: [])

    /// Realtime Database trees are at most 32 levels deep.
    static let maximumDepth = 32

    /// Parses a URL path such as `/users/usernames/bob.json` (the `.json` suffix is optional).
    /// - Throws: ``DatabaseError/invalidPath(_:)`` for keys with forbidden characters or a path
    ///   deeper than ``maximumDepth``.
    init(urlPath: String) throws(DatabaseError) {
        var path = urlPath
        if path.hasSuffix(".json") { path.removeLast(5) }
        let keys = path.split(separator: "/").map(String.init)
        guard keys.count <= Self.maximumDepth, keys.allSatisfy(Self.isValidKey) else { throw .invalidPath(urlPath) }
        self.keys = keys
    }

    init(keys: [String]) { self.keys = keys }

    /// A key may not be empty nor contain `. $ # [ ] /` or ASCII control characters.
    static func isValidKey(_ key: String) -> Bool {
        !key.isEmpty && !key.utf8.contains { $0 < 0x20 || $0 == 0x7F || ".$#[]/".utf8.contains($0) }
    }

    func appending(_ other: DatabasePath) -> DatabasePath { DatabasePath(keys: keys + other.keys) }

    /// Whether `other` is this location or below it.
    func contains(_ other: DatabasePath) -> Bool { other.keys.starts(with: keys) }

    /// This location relative to `ancestor`, which must contain it.
    func relative(to ancestor: DatabasePath) -> DatabasePath {
        DatabasePath(keys: Array(keys.dropFirst(ancestor.keys.count)))
    }

    var description: String { "/" + keys.joined(separator: "/") }
}
