import HTTPTypes
import Hummingbird
import SesameLocalAPI

/// The Supabase port: GoTrue at `/auth/v1`, PostgREST at `/rest/v1`, behind the `apikey` check
/// of Supabase's gateway, plus the emulator-only `/sesame/v1/supabase/messages`.
struct SupabaseEndpoints: EmulatorEndpoints {
    /// The state, shared by every Supabase port.
    let store: GoTrueStore
    /// This port's settings and keys.
    let server: GoTrueServer
    /// `host:port` used for links and `iss` when a request has no `Host` header.
    let fallbackHost: String
    /// Set by the fault extension's `clockSkewSeconds`; read by the store's clock.
    let clockSkew: ClockSkew
    /// The fake identity providers, shared with the auth port.
    let identityProvider: FakeIdentityProvider

    static let messagesPath = "/sesame/v1/supabase/messages"
    /// Paths the gateway lets through without an `apikey` (Kong's open routes).
    static let openAuthPaths: Set<String> = ["verify", "callback", "authorize", "health", ".well-known/jwks.json"]

    func callKey(for request: Request, route: String?) -> String? {
        guard route != nil else { return nil }
        let path = request.decodedPath
        if let sub = Self.subpath(path, under: server.pathPrefix) { return GoTrueOperation.callKey(sub) }
        if let sub = Self.subpath(path, under: PostgRESTOperation.prefix) { return "rest:" + sub }
        return IdentityProviderRoutes.callKey(route: route)
    }

    /// `/token` is also counted per grant (`token:refresh_token`, …), so a test can count refreshes alone.
    func extraCallKeys(for request: Request) -> [String] {
        guard Self.subpath(request.decodedPath, under: server.pathPrefix) == "token",
            let grant = request.queryFields["grant_type"],
            ["refresh_token", "password", "id_token", "pkce"].contains(grant)
        else { return [] }
        return ["token:" + grant]
    }

    /// GoTrue's per-address limiters (internal/api/api.go): a sign-up without an address is an
    /// anonymous one; `/token` counts only its refresh grant.
    func rateLimitName(for request: Request, callKey: String?, body: [UInt8]) -> String? {
        guard let callKey, request.method != .get || callKey == "verify" else { return nil }
        switch callKey {
        case "signup":
            let fields = (try? JSONCoding.parse(body))?.objectValue ?? [:]
            let anonymous = (fields["email"]?.stringValue ?? "").isEmpty && (fields["phone"]?.stringValue ?? "").isEmpty
            return anonymous ? "anonymous_users" : "otp"
        case "token": return request.queryFields["grant_type"] == "refresh_token" ? "token_refresh" : nil
        case "verify": return "verify"
        case "otp", "recover", "resend", "magiclink": return "otp"
        case "user": return request.method == .put ? "otp" : nil
        default: return nil
        }
    }

    /// With `--supabase-rate-limit-header` (`header`), its first comma-separated value, as GoTrue
    /// keys its limiters (middleware.go); nil without it, or when the request lacks it.
    static func rateLimitClient(_ request: Request, header: String?) -> String? {
        guard let header, let value = request.header(header) else { return nil }
        let first = value.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let key = first.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
        return key.isEmpty ? nil : String(key)
    }

    /// The client ``rateLimitClient(_:header:)`` names, else the peer.
    func rateLimitKey(for request: Request, peer: String) -> String {
        Self.rateLimitClient(request, header: server.configuration.rateLimitHeader) ?? peer
    }

    /// GoTrue's answer over a limit (middleware.go): 429 `over_request_rate_limit`, with no `Retry-After`.
    func rateLimitedResponse() -> Response { GoTrueError.overRequestRateLimit.response(versioned: false) }

    static func subpath(_ path: String, under prefix: String) -> String? {
        guard path.hasPrefix(prefix + "/") else { return nil }
        var sub = path.dropFirst(prefix.count + 1)
        while sub.hasSuffix("/") { sub = sub.dropLast() }
        return String(sub)
    }

    func addRoutes(to router: Router<EmulatorRequestContext>) {
        router.get(RouterPath(Self.messagesPath)) { _, _ in await store.messagesJSON() }
        router.delete(RouterPath(Self.messagesPath)) { _, _ in
            await store.clearMessages()
            return await store.messagesJSON()
        }
        IdentityProviderRoutes(provider: identityProvider, fallbackHost: fallbackHost).add(to: router)
        guard server.configuration.layout == .gateway else {
            router.addRoutes(goTrueRoutes())
            return
        }
        router.addRoutes(goTrueRoutes(), atPath: RouterPath(GoTrueOperation.prefix))
        router.addRoutes(postgRESTRoutes(), atPath: RouterPath(PostgRESTOperation.prefix))
    }

    /// GoTrue's 404 under `/auth/v1`, else a hint at the two prefixes.
    func unroutedResponse(for request: Request) -> Response {
        let path = request.decodedPath
        if path == Self.messagesPath {
            return Response.json(["error": "Use GET or DELETE"] as JSONValue, status: .methodNotAllowed)
        }
        if let sub = Self.subpath(path, under: server.pathPrefix) {
            if server.configuration.layout == .gateway, !Self.openAuthPaths.contains(sub),
                let refused = apiKeyRefusal(request)
            {
                return refused.response
            }
            return GoTrueOperation.notFound(request).response(for: request)
        }
        return Response.json(
            ["message": .string("no Supabase route \(request.method.rawValue) \(path): use /auth/v1/… or /rest/v1/…")]
                as JSONValue,
            status: .notFound)
    }

    /// An injected failure, in GoTrue's legacy shape plus PostgREST's `message`. A `failMessage`
    /// that looks like a GoTrue code (`over_request_rate_limit`) is used as the `error_code`.
    func errorResponse(status: Int, message: String) -> Response {
        let looksLikeCode = !message.isEmpty && message.allSatisfy { $0.isLowercase || $0 == "_" || $0.isNumber }
        let byStatus = [429: "over_request_rate_limit", 409: "conflict"][status]
        let code = looksLikeCode ? message : byStatus ?? (status >= 500 ? "unexpected_failure" : "unknown")
        let body: JSONValue = [
            "code": .int(status), "error_code": .string(code), "msg": .string(message), "message": .string(message),
        ]
        return Response.json(body, status: HTTPResponse.Status(code: status), headers: [GoTrueError.codeField: code])
    }

    func faultSettingsChanged(_ settings: FaultSettings) async {
        clockSkew.set(seconds: settings.clockSkewSeconds)
    }

    func payloadTooLargeResponse() -> Response {
        GoTrueError(httpStatus: 413, code: "request_too_large", message: "Request body too large: the limit is 1 MiB")
            .response(versioned: false)
    }
}
