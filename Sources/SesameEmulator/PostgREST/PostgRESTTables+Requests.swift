import Foundation
import SesameLocalAPI

/// Who a PostgREST request runs as: the `role` claim of its JWT and `auth.uid()` (its `sub`).
struct PostgRESTRole: Sendable, Equatable {
    var role: String
    var uid: String?

    var bypassesRLS: Bool { role == "service_role" }
}

/// The PostgREST subset over the directory tables: select, insert (upsert), delete and the two
/// lookups, each checked against the table's schema and row-level security policies.
extension PostgRESTTables {
    static func schema(_ table: String) throws(PostgRESTError) -> Schema {
        guard let schema = schemas[table] else { throw .unknownTable(table) }
        return schema
    }

    static func checkFilters(_ filters: [(String, String)], _ schema: PostgRESTTables.Schema) throws(PostgRESTError) {
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
        var working = self
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
            if let existing = working.select(schema, where: [(schema.primaryKey, key)]).first {
                guard upsert else { throw .duplicateKey(table, column: schema.primaryKey, value: key) }
                if !role.bypassesRLS, !schema.ownerMayUpdate || existing["uid"]?.stringValue != role.uid {
                    throw PostgRESTError(
                        httpStatus: authenticated ? 403 : 401, code: "42501",
                        message: "new row violates row-level security policy (USING expression) for table \"\(table)\"")
                }
                working.replace(key, in: schema, with: row)
            } else {
                working.insert(row, into: schema)
            }
            written.append(row)
        }
        self = working
        return written
    }

    /// `DELETE /rest/v1/<table>?…`: deletes the matching rows the caller's policies allow.
    mutating func delete(
        _ table: String, filters: [(String, String)], as role: PostgRESTRole
    ) throws(PostgRESTError) -> Int {
        let schema = try Self.schema(table)
        try Self.checkFilters(filters, schema)
        return delete(from: schema, where: filters) { row in
            role.bypassesRLS || (schema.ownerMayDelete && role.uid != nil && row["uid"]?.stringValue == role.uid)
        }
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

/// PostgREST's requests run against the store's tables, so a foreign key sees `auth.users` and a
/// user's deletion cascades atomically.
extension GoTrueStore {
    func restSelect(
        _ table: String, filters: [(String, String)], columns: [String]?, as role: PostgRESTRole
    ) throws(PostgRESTError) -> JSONValue {
        try tables.select(table, filters: filters, columns: columns, as: role)
    }

    func restInsert(
        _ table: String, rows: [[String: JSONValue]], as role: PostgRESTRole, upsert: Bool
    ) throws(PostgRESTError) -> [[String: JSONValue]] {
        try tables.insert(table, rows: rows, as: role, upsert: upsert) { users[$0] != nil }
    }

    func restDelete(_ table: String, filters: [(String, String)], as role: PostgRESTRole) throws(PostgRESTError) -> Int
    {
        try tables.delete(table, filters: filters, as: role)
    }

    /// `POST /rest/v1/rpc/<name>`: a lookup (``PostgRESTTables/lookup(_:arguments:)``), or the
    /// configured delete function, which deletes `auth.uid()`'s user (cascading), is not
    /// executable by `anon`, and is a no-op without a uid. nil for the delete function (`void`, 204).
    func restCall(
        _ name: String, arguments: [String: JSONValue], as role: PostgRESTRole
    ) throws(PostgRESTError) -> JSONValue? {
        if let answer = try tables.lookup(name, arguments: arguments) { return answer }
        guard let function = configuration.deleteFunction, function == name, arguments.isEmpty else {
            throw .unknownFunction(name, arguments: Array(arguments.keys))
        }
        if role.role == "anon" { throw .permissionDenied(function: name) }
        if let uid = role.uid, users[uid] != nil { deleteUser(uid) }
        return nil
    }
}
