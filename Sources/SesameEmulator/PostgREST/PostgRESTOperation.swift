import HTTPTypes
import Hummingbird
import SesameLocalAPI

/// One PostgREST endpoint the Supabase port serves under `/rest/v1`: its path and methods, and
/// what it does with the ``GoTrueStore``'s tables for the caller's role. Every method reaches an
/// operation, which answers PostgREST's 405 for the ones not served. The table is
/// ``PostgRESTOperation/all``.
struct PostgRESTOperation: Sendable {
    typealias Perform = @Sendable (GoTrueStore, PostgRESTCall) async throws(PostgRESTError) -> any ResponseGenerator

    /// The path under `/rest/v1`.
    let path: String
    let methods: [HTTPRequest.Method]
    let perform: Perform

    init(_ methods: [HTTPRequest.Method], _ path: String, _ perform: @escaping Perform) {
        self.path = path
        self.methods = methods
        self.perform = perform
    }

    static let prefix = "/rest/v1"
    static let reservedParameters: Set<String> = [
        "select", "order", "limit", "offset", "on_conflict", "columns", "apikey",
    ]

    static let all: [PostgRESTOperation] = [
        PostgRESTOperation([.get, .head], "{table}") { store, call throws(PostgRESTError) in
            let columns = call.query["select"].flatMap { $0 == "*" ? nil : $0.split(separator: ",").map(String.init) }
            let rows = try await store.restSelect(
                call.table, filters: try call.filters(), columns: columns, as: call.role)
            let count = rows.arrayValue?.count ?? 0
            var response = Response.json(rows, headers: [.contentRange: count == 0 ? "*/*" : "0-\(count - 1)/*"])
            if call.request.method == .head { response.body = ResponseBody() }
            return response
        },
        PostgRESTOperation([.post], "{table}") { store, call throws(PostgRESTError) in
            let prefer = call.preferences
            _ = try call.filters()
            let written = try await store.restInsert(
                call.table, rows: try call.rows(), as: call.role, upsert: prefer["resolution"] == "merge-duplicates")
            guard prefer["return"] == "representation" else { return Response.empty(.created) }
            return Response.json(JSONValue.array(written.map(JSONValue.object)), status: .created)
        },
        PostgRESTOperation([.delete], "{table}") { store, call throws(PostgRESTError) in
            _ = try await store.restDelete(call.table, filters: try call.filters(), as: call.role)
            return Response.empty(.noContent)
        },
        PostgRESTOperation([.put, .patch], "{table}") { _, call throws(PostgRESTError) in
            _ = try call.filters()
            throw unsupported(call.request.method)
        },
        PostgRESTOperation([.get, .post], "rpc/{function}") { store, call throws(PostgRESTError) in
            let function = call.context.parameter("function")
            guard let answer = try await store.restCall(function, arguments: try call.arguments(), as: call.role)
            else { return Response.empty(.noContent) }
            return answer
        },
        PostgRESTOperation([.head, .put, .patch, .delete], "rpc/{function}") { _, call throws(PostgRESTError) in
            throw unsupported(call.request.method)
        },
    ]

    static func unsupported(_ method: HTTPRequest.Method) -> PostgRESTError {
        PostgRESTError(
            httpStatus: 405, code: "PGRST117", message: "Unsupported HTTP method: \(method.rawValue)",
            hint: "This emulator serves GET, POST and DELETE on tables and POST on rpc/")
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
        } catch {
            throw .jwt(error)
        }
        let role = claims["role"]?.stringValue ?? "anon"
        guard ["anon", "authenticated", "service_role"].contains(role) else {
            throw PostgRESTError(httpStatus: 401, code: "22023", message: "role \"\(role)\" does not exist")
        }
        return PostgRESTRole(role: role, uid: claims["sub"]?.stringValue.flatMap { $0.isEmpty ? nil : $0.lowercased() })
    }
}
