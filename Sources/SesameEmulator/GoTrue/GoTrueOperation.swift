import Foundation
import HTTPTypes
import Hummingbird
import SesameLocalAPI

/// One GoTrue endpoint the Supabase port serves under `/auth/v1`: its path and method, who may call it, and what
/// it does with the ``GoTrueStore`` and the typed request; ``SupabaseEndpoints`` routes ``GoTrueOperation/all``.
struct GoTrueOperation: Sendable {
    typealias Perform = @Sendable (GoTrueStore, GoTrueCall) async throws(GoTrueError) -> any ResponseGenerator

    /// Who may call an operation, checked in this order before it runs.
    enum Gate: Sendable {
        /// One of Kong's open routes: no `apikey` needed.
        case open
        /// A browser page (an open route answering a redirect): no `apikey`, no `X-Supabase-Api-Version` echo.
        case browser
        /// The gateway's `apikey` check.
        case apiKey
        /// The `apikey`, then a `service_role` bearer (GoTrue's `requireAdminCredentials`).
        case admin
    }

    /// The path under `/auth/v1` (`admin/users/{id}`).
    let path: String
    let method: HTTPRequest.Method
    let gate: Gate
    let perform: Perform

    init(_ method: HTTPRequest.Method, _ path: String, _ gate: Gate = .apiKey, _ perform: @escaping Perform) {
        self.path = path
        self.method = method
        self.gate = gate
        self.perform = perform
    }

    static let prefix = "/auth/v1"
    static let apiVersionField = HTTPField.Name("X-Supabase-Api-Version")!
    static let apiVersion = "2024-01-01"

    static let all = session + mfa + admin + oauth + disabled

    /// Whether an `X-Supabase-Api-Version` value asks for the 2024-01-01 error shape.
    static func isVersioned(_ header: String?) -> Bool {
        guard let value = header?.trimmingCharacters(in: .whitespaces),
            value.count == 10, value.allSatisfy({ $0.isNumber || $0 == "-" })
        else { return false }
        return value >= apiVersion
    }

    /// The fault extension's counter name: the path without `/auth/v1/`, ids dropped (`token`, `admin/users`).
    static func callKey(_ subpath: String) -> String {
        if subpath.hasPrefix("admin/users/") { return "admin/users" }
        if subpath.hasPrefix("factors/") {
            let last = subpath.split(separator: "/").last.map(String.init) ?? ""
            return ["challenge", "verify"].contains(last) ? "factors/" + last : "factors"
        }
        return subpath
    }

    /// The 404 for a path under `/auth/v1` that has no route.
    static func notFound(_ request: Request) -> GoTrueError {
        GoTrueError(
            httpStatus: 404, code: "not_found",
            message:
                "No GoTrue endpoint \(request.method.rawValue) \(request.decodedPath); see docs/emulator.md for the supported ones"
        )
    }
}

/// What an operation gets: the request (after the gateway), its body and path parameters, and its URLs.
struct GoTrueCall: Sendable {
    let request: Request
    let context: EmulatorRequestContext
    /// The fake identity providers `/authorize` sends the browser to.
    let identityProvider: FakeIdentityProvider
    /// `http://host:port` of this port, as the client addressed it.
    let origin: String
    /// Where GoTrue lives on this port (``GoTrueServer/pathPrefix``).
    let pathPrefix: String

    /// GoTrue's URL on this port (its `API_EXTERNAL_URL`), the tokens' `iss`.
    var issuer: String { origin + pathPrefix }
    var bearer: String? { request.bearerToken }
    var query: [String: String] { request.queryFields }

    /// The path parameter `name`, percent-decoded.
    func parameter(_ name: String) -> String { context.parameter(name) }

    /// The typed body.
    func body<Body: GoTrueBody>(_ type: Body.Type = Body.self) throws(GoTrueError) -> Body {
        try GoTrueRequestDecoding.decode(type, from: context.body)
    }

    /// The `redirect_to` query parameter supabase-auth sends, when not empty.
    var redirectTo: String? { query["redirect_to"].nonEmpty }
}

extension SupabaseEndpoints {
    /// GoTrue's operations as one route collection (added at ``GoTrueOperation/prefix``): the gate's checks, then
    /// the operation; a ``GoTrueError`` renders in the shape the request asked for, with the version echoed.
    func goTrueRoutes() -> RouteCollection<EmulatorRequestContext> {
        let routes = RouteCollection(context: EmulatorRequestContext.self)
        for operation in GoTrueOperation.all {
            routes.on(RouterPath(operation.path), method: operation.method) { request, context in
                if operation.gate == .apiKey || operation.gate == .admin { try checkAPIKey(request) }
                let call = GoTrueCall(
                    request: request, context: context, identityProvider: identityProvider,
                    origin: request.origin(fallbackHost: fallbackHost),
                    pathPrefix: server.pathPrefix)
                var response = try await GoTrueServer.$current.withValue(server) {
                    if operation.gate == .admin { try await store.requireAdmin(bearer: call.bearer) }
                    return try await operation.perform(store, call).response(from: request, context: context)
                }
                if operation.gate != .browser, GoTrueOperation.isVersioned(request.header("X-Supabase-Api-Version")) {
                    response.headers.append(
                        HTTPField(name: GoTrueOperation.apiVersionField, value: GoTrueOperation.apiVersion))
                }
                return response
            }
        }
        return routes
    }
}
