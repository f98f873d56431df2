import Foundation
import HTTPTypes
import Hummingbird
import SesameLocalAPI

/// The `/auth/v1/*` routes: each decodes its typed body, calls the ``GoTrueStore`` and renders
/// GoTrue's reply, or its error in the shape the request asked for.
struct GoTrueRouter: Sendable {
    static let prefix = "/auth/v1"
    static let apiVersionHeader = "X-Supabase-Api-Version"
    static let apiVersion = "2024-01-01"

    let store: GoTrueStore
    /// The gateway's `apikey` check (``SupabaseEndpoints/checkAPIKey(_:)``).
    let checkAPIKey: @Sendable (EmulatorRequest) -> EmulatorReply?
    /// `host:port` used for links and `iss` when a request has no `Host` header.
    let fallbackHost: String
    /// The fake identity providers `/authorize` sends the browser to.
    let identityProvider: FakeIdentityProvider

    /// What a GoTrue handler gets besides its request: the bearer token and the URLs to put in
    /// links and in `iss`.
    struct Call: Sendable {
        var bearer: String?
        /// `http://host:port` of this port, as the client addressed it.
        var origin: String
        var issuer: String { origin + GoTrueRouter.prefix }
    }

    typealias Handler = @Sendable (EmulatorRequest, Call) async throws(GoTrueError) -> EmulatorReply

    /// The fault extension's counter name: the path without `/auth/v1/`, with ids dropped
    /// (`token`, `signup`, `admin/users`).
    static func callKey(_ subpath: String) -> String {
        if subpath.hasPrefix("admin/users/") { return "admin/users" }
        if subpath.hasPrefix("factors/") {
            let last = subpath.split(separator: "/").last.map(String.init) ?? ""
            return ["challenge", "verify"].contains(last) ? "factors/" + last : "factors"
        }
        return subpath
    }

    /// Whether the request asked for the 2024-01-01 error shape.
    static func isVersioned(_ request: EmulatorRequest) -> Bool {
        isVersioned(request.header(apiVersionHeader))
    }

    /// Whether an `X-Supabase-Api-Version` value asks for the 2024-01-01 error shape.
    static func isVersioned(_ header: String?) -> Bool {
        guard let value = header?.trimmingCharacters(in: .whitespaces),
            value.count == 10, value.allSatisfy({ $0.isNumber || $0 == "-" })
        else { return false }
        return value >= apiVersion
    }

    static func bearer(_ request: EmulatorRequest) -> String? {
        guard let value = request.header("authorization") else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }

    /// The typed body of `request`.
    static func body<Body: GoTrueBody>(_ type: Body.Type, _ request: EmulatorRequest) throws(GoTrueError) -> Body {
        try GoTrueRequestDecoding.decode(type, from: request.body)
    }

    func add(to router: Router<EmulatorRequestContext>) {
        on(router, "health", .get, open: true) { _, _ throws(GoTrueError) in
            // GoTrue's own words (api.go HealthCheck); the version is the emulator's.
            .json(
                [
                    "version": .string(SesameVersion.current), "name": "GoTrue",
                    "description": "GoTrue is a user registration and authentication API",
                ])
        }
        on(router, ".well-known/jwks.json", .get, open: true) { _, _ throws(GoTrueError) in
            // GoTrue's WellKnownJwks: public keys only, cached by clients for 10 minutes.
            .json(store.jwt.jwks, headers: [("Cache-Control", "public, max-age=600")])
        }
        on(router, "settings", .get) { _, _ throws(GoTrueError) in .json(await settings()) }
        on(router, "signup", .post) { request, call throws(GoTrueError) in
            .json(
                try await store.signUp(
                    try Self.body(SignUpBody.self, request), issuer: call.issuer, origin: call.origin))
        }
        on(router, "token", .post) { request, call throws(GoTrueError) in try await token(request, call) }
        on(router, "otp", .post) { request, call throws(GoTrueError) in
            .json(try await store.sendOTP(try Self.body(OTPBody.self, request), origin: call.origin))
        }
        on(router, "resend", .post) { request, call throws(GoTrueError) in
            .json(
                try await store.resend(
                    try Self.body(ResendBody.self, request), origin: call.origin, redirectTo: Self.redirectTo(request)))
        }
        on(router, "verify", .post, open: true) { request, call throws(GoTrueError) in
            .json(try await store.verify(try Self.body(VerifyBody.self, request), issuer: call.issuer).session)
        }
        router.route(RouterPath(Self.prefix + "/verify"), .get) { request in
            await verifyLink(request, origin: origin(request))
        }
        on(router, "recover", .post) { request, call throws(GoTrueError) in
            .json(try await store.recover(try Self.body(RecoverBody.self, request), origin: call.origin))
        }
        on(router, "user", .get) { _, call throws(GoTrueError) in
            .json(try await store.currentUser(bearer: call.bearer))
        }
        on(router, "user", .put) { request, call throws(GoTrueError) in
            .json(
                try await store.updateUser(
                    try Self.body(UserUpdateBody.self, request), bearer: call.bearer, origin: call.origin))
        }
        on(router, "logout", .post) { request, call throws(GoTrueError) in
            try await store.logout(scope: request.query["scope"], bearer: call.bearer)
            return EmulatorReply(status: 204)
        }
        addMFARoutes(to: router)
        addAdminRoutes(to: router)
        addOAuthRoutes(to: router)
        addDisabledRoutes(to: router)
    }

    /// Adds `/auth/v1/<subpath>`: the gateway's key check (unless `open`: Kong's open routes,
    /// ``SupabaseEndpoints/openAuthPaths``), the service_role
    /// check (when `admin`), then the handler; a thrown ``GoTrueError`` is answered in the shape
    /// the request asked for.
    func on(
        _ router: Router<EmulatorRequestContext>, _ subpath: String, _ method: HTTPRequest.Method,
        admin: Bool = false, open: Bool = false, _ handler: @escaping Handler
    ) {
        router.route(RouterPath(Self.prefix + "/" + subpath), method) { request in
            if !open, let refused = checkAPIKey(request) { return refused }
            let call = Call(bearer: Self.bearer(request), origin: origin(request))
            if admin { try await store.requireAdmin(bearer: call.bearer) }
            var reply = try await handler(request, call)
            if Self.isVersioned(request) { reply.headers.append((Self.apiVersionHeader, Self.apiVersion)) }
            return reply
        }
    }

    /// The 404 for a path under `/auth/v1` that has no route.
    static func notFound(_ request: EmulatorRequest) -> EmulatorReply {
        GoTrueError(
            httpStatus: 404, code: "not_found",
            message: "No GoTrue endpoint \(request.method) \(request.path); see docs/emulator.md for the supported ones"
        ).reply(versioned: isVersioned(request))
    }

    func origin(_ request: EmulatorRequest) -> String {
        "http://" + (request.header("host") ?? fallbackHost)
    }

    /// `POST /token?grant_type=…`.
    private func token(_ request: EmulatorRequest, _ call: Call) async throws(GoTrueError) -> EmulatorReply {
        switch request.query["grant_type"] {
        case "password":
            return .json(
                try await store.passwordGrant(try Self.body(PasswordGrantBody.self, request), issuer: call.issuer))
        case "refresh_token":
            return .json(
                try await store.refreshGrant(try Self.body(RefreshGrantBody.self, request), issuer: call.issuer))
        case "id_token":
            return .json(
                try await store.idTokenGrant(
                    try Self.body(IdTokenGrantBody.self, request), bearer: call.bearer, issuer: call.issuer))
        case "pkce":
            return .json(try await store.pkceGrant(try Self.body(PKCEGrantBody.self, request), issuer: call.issuer))
        default:
            throw .badRequest("invalid_credentials", "unsupported_grant_type")
        }
    }
}
