import HTTPTypes
import Hummingbird
import SesameLocalAPI

/// One PostgREST endpoint the Supabase port serves under `/rest/v1`: its path and methods, and
/// what it does with the ``GoTrueStore``'s tables for the caller's role. Every method reaches an
/// operation, which answers PostgREST's 405 for the ones not served. The table is
/// ``PostgRESTOperation/all``.
struct PostgRESTOperation: Sendable {
    typealias Perform = @Sendable (GoTrueStore, PostgRESTCall) async throws(PostgRESTError) -> any ResponseGenerator

    let methods: [HTTPRequest.Method]
    /// The path under `/rest/v1`.
    let path: String
    let perform: Perform

    static let prefix = "/rest/v1"
    static let reservedParameters: Set<String> = [
        "select", "order", "limit", "offset", "on_conflict", "columns", "apikey",
    ]

    static let all: [PostgRESTOperation] = [
        PostgRESTOperation(methods: [.get, .head], path: "{table}") { store, call throws(PostgRESTError) in
            let columns = call.query["select"].flatMap { $0 == "*" ? nil : $0.split(separator: ",").map(String.init) }
            let filters = try call.filters()
            let rows = try await store.withTables { tables, _ throws(PostgRESTError) in
                try tables.select(call.table, filters: filters, columns: columns, as: call.role)
            }
            let count = rows.arrayValue?.count ?? 0
            var response = Response.json(rows, headers: [.contentRange: count == 0 ? "*/*" : "0-\(count - 1)/*"])
            if call.request.method == .head { response.body = ResponseBody() }
            return response
        },
        PostgRESTOperation(methods: [.post], path: "{table}") { store, call throws(PostgRESTError) in
            let prefer = call.preferences
            _ = try call.filters()
            let rows = try call.rows()
            let written = try await store.withTables { tables, userExists throws(PostgRESTError) in
                let upsert = prefer["resolution"] == "merge-duplicates"
                return try tables.insert(call.table, rows: rows, as: call.role, upsert: upsert, userExists: userExists)
            }
            guard prefer["return"] == "representation" else { return Response.empty(.created) }
            return Response.json(JSONValue.array(written.map(JSONValue.object)), status: .created)
        },
        PostgRESTOperation(methods: [.delete], path: "{table}") { store, call throws(PostgRESTError) in
            let filters = try call.filters()
            _ = try await store.withTables { tables, _ throws(PostgRESTError) in
                try tables.delete(call.table, filters: filters, as: call.role)
            }
            return Response.empty(.noContent)
        },
        PostgRESTOperation(methods: [.put, .patch], path: "{table}") { _, call throws(PostgRESTError) in
            _ = try call.filters()
            throw unsupported(call.request.method)
        },
        PostgRESTOperation(methods: [.get, .post], path: "rpc/{function}") { store, call throws(PostgRESTError) in
            let function = call.context.parameter("function")
            guard let answer = try await store.restCall(function, arguments: try call.arguments(), as: call.role)
            else { return Response.empty(.noContent) }
            return answer
        },
        PostgRESTOperation(methods: [.head, .put, .patch, .delete], path: "rpc/{function}") {
            _, call throws(PostgRESTError) in throw unsupported(call.request.method)
        },
    ]

    static func unsupported(_ method: HTTPRequest.Method) -> PostgRESTError {
        PostgRESTError(
            httpStatus: 405, code: "PGRST117", message: "Unsupported HTTP method: \(method.rawValue)",
            hint: "This emulator serves GET, POST and DELETE on tables and POST on rpc/")
    }
}

/// Who a PostgREST request runs as: the `role` claim of its JWT and `auth.uid()` (its `sub`).
struct PostgRESTRole: Sendable, Equatable {
    var role: String
    var uid: String?

    var bypassesRLS: Bool { role == "service_role" }
}

/// PostgREST's requests run against the store's tables, so a foreign key sees `auth.users` and a
/// user's deletion cascades atomically.
extension GoTrueStore {
    /// Runs `body` on the tables, with whether a user exists in `auth.users`.
    func withTables<T: Sendable>(
        _ body: @Sendable (inout PostgRESTTables, _ userExists: (String) -> Bool) throws(PostgRESTError) -> T
    ) throws(PostgRESTError) -> T {
        try body(&tables) { users[$0] != nil }
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

extension SupabaseEndpoints {
    /// PostgREST's operations as one route collection (to add at ``PostgRESTOperation/prefix``):
    /// the gateway's key check, the caller's role, then the operation.
    func postgRESTRoutes() -> RouteCollection<EmulatorRequestContext> {
        let routes = RouteCollection(context: EmulatorRequestContext.self)
        for operation in PostgRESTOperation.all {
            for method in operation.methods {
                routes.on(RouterPath(operation.path), method: method) { request, context in
                    try checkAPIKey(request)
                    let call = PostgRESTCall(request: request, context: context, role: try role(request))
                    return try await GoTrueServer.$current.withValue(server) {
                        try await operation.perform(store, call).response(from: request, context: context)
                    }
                }
            }
        }
        return routes
    }

    /// The role and `auth.uid()` of the request's bearer JWT; no bearer is `anon`.
    func role(_ request: Request) throws(PostgRESTError) -> PostgRESTRole {
        guard let bearer = request.bearerToken else { return PostgRESTRole(role: "anon", uid: nil) }
        let claims: [String: JSONValue]
        do {
            claims = try server.jwt.verify(bearer, now: store.clock.milliseconds() / 1000)
        } catch { throw .jwt(error) }
        let role = claims["role"]?.stringValue ?? "anon"
        guard ["anon", "authenticated", "service_role"].contains(role) else {
            throw PostgRESTError(httpStatus: 401, code: "22023", message: "role \"\(role)\" does not exist")
        }
        return PostgRESTRole(role: role, uid: claims["sub"]?.stringValue.flatMap { $0.isEmpty ? nil : $0.lowercased() })
    }
}
