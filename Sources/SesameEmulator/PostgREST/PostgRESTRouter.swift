import Foundation
import HTTPTypes
import Hummingbird
import SesameLocalAPI

/// The `/rest/v1/*` routes: verifies the bearer JWT, parses PostgREST's query syntax
/// (`col=eq.v`, `select=`) and `Prefer`, and calls the ``GoTrueStore`` table operations.
struct PostgRESTRouter: Sendable {
    static let prefix = "/rest/v1"
    static let reservedParameters: Set<String> = [
        "select", "order", "limit", "offset", "on_conflict", "columns", "apikey",
    ]

    let store: GoTrueStore
    /// The gateway's `apikey` check (``SupabaseEndpoints/checkAPIKey(_:)``).
    let checkAPIKey: @Sendable (EmulatorRequest) -> EmulatorReply?

    /// The fault extension's counter name: `rest:<table>` or `rest:rpc/<name>`.
    static func callKey(_ subpath: String) -> String { "rest:" + subpath }

    /// Every method goes to the handlers, which answer PostgREST's 405 for the ones not served.
    func add(to router: Router<EmulatorRequestContext>) {
        for method in [HTTPRequest.Method.get, .head, .post, .put, .patch, .delete] {
            router.route(RouterPath(Self.prefix + "/{table}"), method) { request in
                try await respond(request) { role throws(PostgRESTError) in
                    try await table(request.parameters["table"] ?? "", request, as: role)
                }
            }
            router.route(RouterPath(Self.prefix + "/rpc/{function}"), method) { request in
                try await respond(request) { role throws(PostgRESTError) in
                    guard request.method == "POST" || request.method == "GET" else {
                        throw Self.unsupported(request.method)
                    }
                    let arguments = try Self.arguments(request)
                    guard
                        let answer = try await store.restCall(
                            request.parameters["function"] ?? "", arguments: arguments, as: role)
                    else { return EmulatorReply(status: 204) }
                    return .json(answer)
                }
            }
        }
    }

    private func respond(
        _ request: EmulatorRequest,
        _ handler: @Sendable (PostgRESTRole) async throws(PostgRESTError) -> EmulatorReply
    ) async throws(PostgRESTError) -> EmulatorReply {
        if let refused = checkAPIKey(request) { return refused }
        return try await handler(try role(request))
    }

    /// The role and `auth.uid()` of the request's bearer JWT; no bearer is `anon`.
    func role(_ request: EmulatorRequest) throws(PostgRESTError) -> PostgRESTRole {
        guard let bearer = GoTrueRouter.bearer(request) else { return PostgRESTRole(role: "anon", uid: nil) }
        let claims: [String: JSONValue]
        do {
            claims = try store.jwt.verify(bearer, now: store.clock.milliseconds() / 1000)
        } catch {
            throw .jwt(error)
        }
        let role = claims["role"]?.stringValue ?? "anon"
        guard ["anon", "authenticated", "service_role"].contains(role) else {
            throw PostgRESTError(httpStatus: 401, code: "22023", message: "role \"\(role)\" does not exist")
        }
        return PostgRESTRole(role: role, uid: claims["sub"]?.stringValue.flatMap { $0.isEmpty ? nil : $0.lowercased() })
    }

    /// `GET`/`HEAD` (select), `POST` (insert, upsert), `DELETE` on `/rest/v1/<table>`.
    private func table(
        _ table: String, _ request: EmulatorRequest, as role: PostgRESTRole
    ) async throws(PostgRESTError)
        -> EmulatorReply
    {
        let prefer = Self.preferences(request.header("prefer"))
        let filters = try Self.filters(request.query)
        switch request.method {
        case "GET", "HEAD":
            let columns = request.query["select"].flatMap {
                $0 == "*" ? nil : $0.split(separator: ",").map(String.init)
            }
            let rows = try await store.restSelect(table, filters: filters, columns: columns, as: role)
            let count = rows.arrayValue?.count ?? 0
            let range = count == 0 ? "*/*" : "0-\(count - 1)/*"
            var reply = EmulatorReply.json(rows, headers: [("Content-Range", range)])
            if request.method == "HEAD" { reply.body = nil }
            return reply
        case "POST":
            let rows = try Self.rows(request.body)
            let written = try await store.restInsert(
                table, rows: rows, as: role, upsert: prefer["resolution"] == "merge-duplicates")
            if prefer["return"] == "representation" {
                return .json(.array(written.map(JSONValue.object)), status: 201)
            }
            return EmulatorReply(status: 201)
        case "DELETE":
            _ = try await store.restDelete(table, filters: filters, as: role)
            return EmulatorReply(status: 204)
        default:
            throw Self.unsupported(request.method)
        }
    }

    static func unsupported(_ method: String) -> PostgRESTError {
        PostgRESTError(
            httpStatus: 405, code: "PGRST117", message: "Unsupported HTTP method: \(method)",
            hint: "This emulator serves GET, POST and DELETE on tables and POST on rpc/")
    }
}
