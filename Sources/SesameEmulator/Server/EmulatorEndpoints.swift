import HTTPTypes
import Hummingbird
import SesameLocalAPI

/// What an emulator port serves: the Auth API or the Realtime Database REST API.
///
/// Implementations are `Sendable` values that forward to the actor owning their state. They add
/// their routes to the port's Hummingbird `Router`; the port's ``EmulatorMiddleware`` (CORS,
/// faults, the body cap) runs in front of every route. Handlers turn every bad input into an
/// error reply and never throw.
protocol EmulatorEndpoints: Sendable {
    /// The name under which a request is counted by the fault extension (`accounts:signUp`,
    /// `token`, `GET`…), or `nil` when it is not counted. `route` is the path of the route the
    /// request matched, as Hummingbird prints it (`/auth/v1/admin/users/{id}`), `nil` when none
    /// did: only routed requests are counted. Called before the body is read.
    func callKey(for request: EmulatorRequest, route: String?) -> String?

    /// Further names the request is also counted under (a finer split of ``callKey(for:route:)``,
    /// such as `token:refresh_token` on the Supabase port). Default: none.
    func extraCallKeys(for request: EmulatorRequest) -> [String]

    /// Adds the port's routes.
    func addRoutes(to router: Router<EmulatorRequestContext>)

    /// Answers a request that the port's catch-all routes handed over (see the default
    /// ``addRoutes(to:)``); endpoints with their own routes do not need it.
    func respond(to request: EmulatorRequest) async throws -> EmulatorReply

    /// The port's error envelope for an injected failure or a transport-level problem.
    func errorReply(status: Int, message: String) -> EmulatorReply

    /// The answer for a request no route matched (404 on auth, 405 on the database).
    func unroutedReply(for request: EmulatorRequest) -> EmulatorReply

    /// The 413 answer for a body over the 1 MiB cap, in the port's envelope.
    func payloadTooLargeReply() -> EmulatorReply

    /// Called after `/sesame/v1/faults` changed the port's settings.
    func faultSettingsChanged(_ settings: FaultSettings) async

    /// The request as the routes see it, after what a gateway in front of the real service
    /// would do to it (Supabase's rewrites `Authorization`). Default: unchanged.
    func gateway(_ request: EmulatorRequest) -> EmulatorRequest
}

extension EmulatorEndpoints {
    /// Endpoints without routes of their own answer every path and method here. Default: the
    /// unrouted answer.
    func respond(to request: EmulatorRequest) async -> EmulatorReply {
        unroutedReply(for: request)
    }

    /// Default: one catch-all route per method that hands every request to
    /// ``respond(to:)``, for endpoints that dispatch themselves.
    func addRoutes(to router: Router<EmulatorRequestContext>) {
        for path: RouterPath in ["/", "**"] {
            for method in [HTTPRequest.Method.get, .head, .put, .patch, .post, .delete] {
                router.route(path, method) { request in try await respond(to: request) }
            }
        }
    }

    /// Default: 404 in the port's error envelope.
    func unroutedReply(for request: EmulatorRequest) -> EmulatorReply {
        errorReply(status: 404, message: "Not Found")
    }

    /// Default: none.
    func extraCallKeys(for request: EmulatorRequest) -> [String] { [] }

    /// Default: nothing.
    func faultSettingsChanged(_ settings: FaultSettings) async {}

    /// Default: unchanged.
    func gateway(_ request: EmulatorRequest) -> EmulatorRequest { request }
}
