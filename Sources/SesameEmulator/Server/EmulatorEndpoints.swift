import HTTPTypes
import Hummingbird

/// What an emulator port serves: the Auth API, the Realtime Database REST API or Supabase.
///
/// Implementations are `Sendable` values that forward to the actor owning their state. They add
/// their routes to the port's Hummingbird `Router`; the port's ``EmulatorMiddleware`` (CORS,
/// faults, the body cap) runs in front of every route. A route answers a typed response or
/// throws its service's `HTTPResponseError`, which renders that service's envelope.
protocol EmulatorEndpoints: Sendable {
    /// The fault extension's counter name of a request (`accounts:signUp`, `token`, `GET`…), `nil`
    /// for none; `route` is the matched route as Hummingbird prints it (`/auth/v1/admin/users/{id}`),
    /// `nil` when none matched. Called before the body is read.
    func callKey(for request: Request, route: String?) -> String?

    /// Further names the request is also counted under (a finer split of ``callKey(for:route:)``,
    /// such as `token:refresh_token` on the Supabase port). Default: none.
    func extraCallKeys(for request: Request) -> [String]

    /// The per-address limit (``RateLimit/documented``'s name) a request counts against, nil for
    /// none. `callKey` is ``callKey(for:route:)``'s; `body` is the request's (read). Default: none.
    func rateLimitName(for request: Request, callKey: String?, body: [UInt8]) -> String?

    /// Whom a request's limits count against: the peer's address unless the service names the
    /// client otherwise (GoTrue's `GOTRUE_RATE_LIMIT_HEADER`). Default: `peer`.
    func rateLimitKey(for request: Request, peer: String) -> String

    /// The answer for a request over its limit: the service's own 429. Default: 429 in
    /// ``errorResponse(status:message:)``.
    func rateLimitedResponse() -> Response

    func addRoutes(to router: Router<EmulatorRequestContext>)

    /// The port's error envelope for an injected failure or a transport-level problem.
    func errorResponse(status: Int, message: String) -> Response

    /// The answer for a request no route matched (404 on auth, 405 on the database).
    func unroutedResponse(for request: Request) -> Response

    /// Answers a request no route matched. Default: ``unroutedResponse(for:)``; the database
    /// port, whose data paths have any depth, dispatches them here by method.
    func respondUnrouted(to request: Request, context: EmulatorRequestContext) async throws -> Response

    /// The 413 answer for a body over the 1 MiB cap, in the port's envelope.
    func payloadTooLargeResponse() -> Response

    /// Called after `/sesame/v1/faults` changed the port's settings.
    func faultSettingsChanged(_ settings: FaultSettings) async

    /// The request as the routes see it, after what a gateway in front of the real service
    /// would do to it (Supabase's rewrites `Authorization`). Default: unchanged.
    func gateway(_ request: Request) -> Request
}

extension EmulatorEndpoints {
    func respondUnrouted(to request: Request, context: EmulatorRequestContext) async throws -> Response {
        unroutedResponse(for: request)
    }

    func extraCallKeys(for request: Request) -> [String] { [] }

    func rateLimitName(for request: Request, callKey: String?, body: [UInt8]) -> String? { nil }

    func rateLimitKey(for request: Request, peer: String) -> String { peer }

    func rateLimitedResponse() -> Response { errorResponse(status: 429, message: "Too many requests") }

    func faultSettingsChanged(_ settings: FaultSettings) async {}

    func gateway(_ request: Request) -> Request { request }
}
