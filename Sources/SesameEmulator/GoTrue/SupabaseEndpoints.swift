import Hummingbird
import SesameLocalAPI

/// The Supabase port: GoTrue at `/auth/v1`, PostgREST at `/rest/v1`, behind the `apikey` check
/// of Supabase's gateway, plus the emulator-only `/sesame/v1/supabase/messages`.
struct SupabaseEndpoints: EmulatorEndpoints {
    let store: GoTrueStore
    /// `host:port` used for links and `iss` when a request has no `Host` header.
    let fallbackHost: String
    /// Set by the fault extension's `clockSkewSeconds`; read by the store's clock.
    let clockSkew: ClockSkew
    /// The fake identity providers, shared with the auth port.
    let identityProvider: FakeIdentityProvider

    static let messagesPath = "/sesame/v1/supabase/messages"
    /// Paths the gateway lets through without an `apikey` (Kong's open routes).
    static let openAuthPaths: Set<String> = ["verify", "callback", "authorize", "health", ".well-known/jwks.json"]

    func callKey(for request: EmulatorRequest, route: String?) -> String? {
        guard route != nil else { return nil }
        if let sub = Self.subpath(request.path, under: GoTrueRouter.prefix) { return GoTrueRouter.callKey(sub) }
        if let sub = Self.subpath(request.path, under: PostgRESTRouter.prefix) { return PostgRESTRouter.callKey(sub) }
        return IdentityProviderRoutes.callKey(route: route)
    }

    /// `/token` is also counted per grant (`token:refresh_token`, `token:password`, `token:id_token`), so a
    /// test can count refreshes alone.
    func extraCallKeys(for request: EmulatorRequest) -> [String] {
        guard Self.subpath(request.path, under: GoTrueRouter.prefix) == "token",
            let grant = request.query["grant_type"],
            ["refresh_token", "password", "id_token", "pkce"].contains(grant)
        else { return [] }
        return ["token:" + grant]
    }

    static func subpath(_ path: String, under prefix: String) -> String? {
        guard path.hasPrefix(prefix + "/") else { return nil }
        var sub = path.dropFirst(prefix.count + 1)
        while sub.hasSuffix("/") { sub = sub.dropLast() }
        return String(sub)
    }

    func addRoutes(to router: Router<EmulatorRequestContext>) {
        router.route(RouterPath(Self.messagesPath), .get) { _ in .json(await store.messagesJSON()) }
        router.route(RouterPath(Self.messagesPath), .delete) { _ in
            await store.clearMessages()
            return .json(await store.messagesJSON())
        }
        GoTrueRouter(
            store: store, checkAPIKey: checkAPIKey, fallbackHost: fallbackHost, identityProvider: identityProvider
        ).add(to: router)
        IdentityProviderRoutes(provider: identityProvider, fallbackHost: fallbackHost).add(to: router)
        PostgRESTRouter(store: store, checkAPIKey: checkAPIKey).add(to: router)
    }

    /// GoTrue's 404 under `/auth/v1`, else a hint at the two prefixes.
    func unroutedReply(for request: EmulatorRequest) -> EmulatorReply {
        if request.path == Self.messagesPath { return .json(["error": "Use GET or DELETE"], status: 405) }
        if request.path.hasPrefix(GoTrueRouter.prefix + "/") {
            let open = Self.openAuthPaths.contains(Self.subpath(request.path, under: GoTrueRouter.prefix) ?? "")
            return (open ? nil : checkAPIKey(request)) ?? GoTrueRouter.notFound(request)
        }
        return .json(
            ["message": .string("no Supabase route \(request.method) \(request.path): use /auth/v1/… or /rest/v1/…")],
            status: 404)
    }

    /// An injected failure, in GoTrue's legacy shape plus PostgREST's `message`. A `failMessage`
    /// that looks like a GoTrue code (`over_request_rate_limit`) is used as the `error_code`.
    func errorReply(status: Int, message: String) -> EmulatorReply {
        let looksLikeCode = !message.isEmpty && message.allSatisfy { $0.isLowercase || $0 == "_" || $0.isNumber }
        let code: String
        if looksLikeCode {
            code = message
        } else {
            switch status {
            case 429: code = "over_request_rate_limit"
            case 409: code = "conflict"
            case 500...: code = "unexpected_failure"
            default: code = "unknown"
            }
        }
        return .json(
            ["code": .int(status), "error_code": .string(code), "msg": .string(message), "message": .string(message)],
            status: status, headers: [("x-sb-error-code", code)])
    }

    func faultSettingsChanged(_ settings: FaultSettings) async {
        clockSkew.set(seconds: settings.clockSkewSeconds)
    }

    func payloadTooLargeReply() -> EmulatorReply {
        GoTrueError(httpStatus: 413, code: "request_too_large", message: "Request body too large: the limit is 1 MiB")
            .reply(versioned: false)
    }
}

extension GoTrueStore {
    func clearMessages() { mail.messages = [] }
}
