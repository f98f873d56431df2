import Foundation
import SesameLocalAPI

/// The two directory tables of the Supabase contract, with their constraints and row-level
/// security policies, as plain values (owned by ``GoTrueStore`` so deletes cascade from users).
struct PostgRESTTables: Sendable, Codable {
    /// A table's schema and policies.
    struct Schema: Sendable {
        var name: String
        var columns: [String]
        var primaryKey: String
        var notNull: Set<String>
        var uuidColumns: Set<String>
        /// Whether an `update using (auth.uid() = uid)` policy exists (else updates match no row).
        var ownerMayUpdate: Bool
        /// Whether a `delete using (auth.uid() = uid)` policy exists.
        var ownerMayDelete: Bool
    }

    static let usernames = Schema(
        name: "usernames", columns: ["key", "uid"], primaryKey: "key", notNull: ["key", "uid"], uuidColumns: ["uid"],
        ownerMayUpdate: false, ownerMayDelete: true)
    static let details = Schema(
        name: "username_details", columns: ["uid", "username", "email"], primaryKey: "uid",
        notNull: ["uid", "username"],
        uuidColumns: ["uid"], ownerMayUpdate: true, ownerMayDelete: false)
    static let schemas = [usernames.name: usernames, details.name: details]

    /// Rows by table name, in insertion order.
    private(set) var rows: [String: [[String: JSONValue]]] = [:]

    func select(_ schema: Schema, where filters: [(String, String)]) -> [[String: JSONValue]] {
        (rows[schema.name] ?? []).filter { row in Self.matches(row, filters) }
    }

    static func matches(_ row: [String: JSONValue], _ filters: [(String, String)]) -> Bool {
        filters.allSatisfy { column, value in
            guard let cell = row[column] else { return false }
            return cell.stringValue == value
        }
    }

    mutating func insert(_ row: [String: JSONValue], into schema: Schema) {
        rows[schema.name, default: []].append(row)
    }

    mutating func replace(_ key: String, in schema: Schema, with row: [String: JSONValue]) {
        guard let index = rows[schema.name]?.firstIndex(where: { $0[schema.primaryKey]?.stringValue == key }) else {
            return
        }
        rows[schema.name]?[index] = row
    }

    /// Deletes matching rows that `allowed` admits; returns how many went.
    mutating func delete(
        from schema: Schema, where filters: [(String, String)], allowed: ([String: JSONValue]) -> Bool
    ) -> Int {
        let before = rows[schema.name]?.count ?? 0
        rows[schema.name]?.removeAll { Self.matches($0, filters) && allowed($0) }
        return before - (rows[schema.name]?.count ?? 0)
    }

    /// `on delete cascade` from `auth.users`.
    mutating func deleteRows(of uid: String) {
        for name in rows.keys { rows[name]?.removeAll { $0["uid"]?.stringValue == uid } }
    }
}
