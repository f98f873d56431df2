import Foundation
import SesameLocalAPI

/// The two directory tables of the Supabase contract, with their constraints and row-level
/// security policies, as plain values (owned by ``GoTrueStore`` so deletes cascade from users);
/// and the PostgREST subset over them: select, insert (upsert), delete and the two lookups, each
/// checked against the table's schema and policies.
struct PostgRESTTables: Sendable, Codable {
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
        notNull: ["uid", "username"], uuidColumns: ["uid"], ownerMayUpdate: true, ownerMayDelete: false)
    static let schemas = [usernames.name: usernames, details.name: details]

    /// Rows by table name, in insertion order.
    private(set) var rows: [String: [[String: JSONValue]]] = [:]

    func select(_ schema: Schema, where filters: [(String, String)]) -> [[String: JSONValue]] {
        (rows[schema.name] ?? []).filter { Self.matches($0, filters) }
    }

    static func matches(_ row: [String: JSONValue], _ filters: [(String, String)]) -> Bool {
        filters.allSatisfy { column, value in row[column]?.stringValue == value }
    }

    /// `on delete cascade` from `auth.users`.
    mutating func deleteRows(of uid: String) {
        for name in rows.keys { rows[name]?.removeAll { $0["uid"]?.stringValue == uid } }
    }

    static func schema(_ table: String) throws(PostgRESTError) -> Schema {
        guard let schema = schemas[table] else { throw .unknownTable(table) }
        return schema
    }

    static func checkFilters(_ filters: [(String, String)], _ schema: Schema) throws(PostgRESTError) {
        for (column, value) in filters {
            guard schema.columns.contains(column) else { throw .unknownColumn(schema.name, column) }
            if schema.uuidColumns.contains(column), UUID(uuidString: value) == nil { throw .invalidUUID(value) }
        }
    }

    /// `GET /rest/v1/<table>?col=eq.v&select=a,b`: the `read own` policies show each caller
    /// only its own rows (`anon` none); `service_role` sees all.
    func select(
        _ table: String, filters: [(String, String)], columns: [String]?, as role: PostgRESTRole
    ) throws(PostgRESTError) -> JSONValue {
        let schema = try Self.schema(table)
        try Self.checkFilters(filters, schema)
        let wanted = columns ?? schema.columns
        for column in wanted where !schema.columns.contains(column) { throw .unknownColumn(table, column) }
        return .array(
            select(schema, where: filters).filter { role.bypassesRLS || $0["uid"]?.stringValue == role.uid }
                .map { row in
                    .object(Dictionary(uniqueKeysWithValues: wanted.map { ($0, row[$0] ?? .null) }))
                })
    }

    /// `POST /rest/v1/<table>`: inserts all rows or none; `upsert` is
    /// `Prefer: resolution=merge-duplicates`. Checks run in Postgres's order: types, not-null,
    /// RLS `with check`, foreign key (`userExists`: `auth.users`), primary key.
    mutating func insert(
        _ table: String, rows input: [[String: JSONValue]], as role: PostgRESTRole, upsert: Bool,
        userExists: (String) -> Bool
    ) throws(PostgRESTError) -> [[String: JSONValue]] {
        let schema = try Self.schema(table)
        var stored = rows[table] ?? []
        var written: [[String: JSONValue]] = []
        for fields in input {
            var row: [String: JSONValue] = [:]
            for (column, value) in fields {
                guard schema.columns.contains(column) else {
                    throw PostgRESTError(
                        httpStatus: 400, code: "PGRST204",
                        message: "Could not find the '\(column)' column of '\(table)' in the schema cache")
                }
                let text: JSONValue = value.isNull ? .null : .string(value.stringValue ?? value.jsonString)
                if schema.uuidColumns.contains(column), let s = text.stringValue {
                    guard UUID(uuidString: s) != nil else { throw .invalidUUID(s) }
                    row[column] = .string(s.lowercased())
                } else {
                    row[column] = text
                }
            }
            for column in schema.columns where row[column] == nil { row[column] = .null }
            for column in schema.notNull where row[column]?.isNull ?? true { throw .notNull(table, column: column) }
            let uid = row["uid"]?.stringValue ?? ""
            let authenticated = role.role != "anon"
            if !role.bypassesRLS, role.uid != uid { throw .rowLevelSecurity(table, authenticated: authenticated) }
            if !userExists(uid) { throw .foreignKey(table, uid: uid) }
            let key = row[schema.primaryKey]?.stringValue ?? ""
            if let index = stored.firstIndex(where: { $0[schema.primaryKey]?.stringValue == key }) {
                guard upsert else { throw .duplicateKey(table, column: schema.primaryKey, value: key) }
                if !role.bypassesRLS, !schema.ownerMayUpdate || stored[index]["uid"]?.stringValue != role.uid {
                    throw PostgRESTError(
                        httpStatus: authenticated ? 403 : 401, code: "42501",
                        message: "new row violates row-level security policy (USING expression) for table \"\(table)\"")
                }
                stored[index] = row
            } else {
                stored.append(row)
            }
            written.append(row)
        }
        rows[table] = stored
        return written
    }

    /// `DELETE /rest/v1/<table>?…`: deletes the matching rows the caller's policies allow.
    mutating func delete(
        _ table: String, filters: [(String, String)], as role: PostgRESTRole
    ) throws(PostgRESTError) -> Int {
        let schema = try Self.schema(table)
        try Self.checkFilters(filters, schema)
        let before = rows[table]?.count ?? 0
        rows[table]?.removeAll { row in
            Self.matches(row, filters)
                && (role.bypassesRLS
                    || (schema.ownerMayDelete && role.uid != nil && row["uid"]?.stringValue == role.uid))
        }
        return before - (rows[table]?.count ?? 0)
    }

    /// `POST /rest/v1/rpc/<name>` for the two directory lookups (`security definer`, for
    /// everyone: one name or one uid in, never a list); nil for any other function.
    func lookup(_ name: String, arguments: [String: JSONValue]) throws(PostgRESTError) -> JSONValue? {
        switch name {
        case "username_owner":
            let key = try Self.argument("name_key", of: name, in: arguments)
            return select(Self.usernames, where: [("key", key)]).first?["uid"] ?? .null
        case "username_details_of":
            let uid = try Self.argument("user_id", of: name, in: arguments)
            guard UUID(uuidString: uid) != nil else { throw .invalidUUID(uid) }
            let rows = select(Self.details, where: [("uid", uid.lowercased())])
            return .array(rows.map { .object(["username": $0["username"] ?? .null, "email": $0["email"] ?? .null]) })
        default:
            return nil
        }
    }

    /// The one text argument a lookup takes; any other set of names finds no function.
    private static func argument(
        _ parameter: String, of function: String, in arguments: [String: JSONValue]
    ) throws(PostgRESTError) -> String {
        guard arguments.count == 1, let value = arguments[parameter], !value.isNull else {
            throw .unknownFunction(function, arguments: Array(arguments.keys))
        }
        return value.stringValue ?? value.jsonString
    }
}
