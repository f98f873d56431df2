import Hummingbird
import SesameCore
import SesameLocalAPI

/// The Auth emulator's HTTP surface (reference §1, §4, §7, §10): routes a request to the
/// ``AccountStore`` operation, after the API-key and `Authorization: Bearer owner` checks.
struct AuthEndpoints: EmulatorEndpoints {
    let state: AccountStore
    let projectId: String
    /// `host:port` used for links when a request has no `Host` header.
    let fallbackHost: String
    /// The port's clock skew (fault `clockSkewSeconds`), read by ``state``'s clock.
    let clockSkew: ClockSkew
    /// The fake identity providers (`/emulator/v1/idp/…`), shared with the Supabase port.
    let identityProvider: FakeIdentityProvider

    func addRoutes(to router: Router<EmulatorRequestContext>) {
        let routes = RouteCollection(context: EmulatorRequestContext.self)
        for operation in Self.operations {
            for path in operation.paths {
                let projectScoped = path.hasPrefix(IdentityToolkitOperation.v1Project)
                routes.on(RouterPath(path), method: operation.method) { request, context in
                    try await respond(
                        to: request, body: context.body, operation: operation, projectScoped: projectScoped)
                }
            }
        }
        router.addRoutes(routes)
        router.addRoutes(.of(Self.emulatorOperations, state: self))
        IdentityProviderRoutes(provider: identityProvider, fallbackHost: fallbackHost).add(to: router)
    }

    /// The operation name of each route path (as Hummingbird prints it), for the call counters.
    static let operationNames: [String: String] = Dictionary(
        Self.operations.flatMap { operation in operation.paths.map { (RouterPath($0).description, operation.name) } },
        uniquingKeysWith: { first, _ in first })

    func callKey(for request: Request, route: String?) -> String? {
        route.flatMap { Self.operationNames[$0] } ?? IdentityProviderRoutes.callKey(route: route)
    }

    /// New account creation (`accounts:signUp`, a guest or an address) is limited per address.
    func rateLimitName(for request: Request, callKey: String?, body: [UInt8]) -> String? {
        callKey == "accounts:signUp" ? "account_creation" : nil
    }

    /// Identity Toolkit's answer over a limit: `TOO_MANY_ATTEMPTS_TRY_LATER` in its envelope,
    /// with no `Retry-After` (none is documented; clients back off by themselves).
    func rateLimitedResponse() -> Response { errorResponse(status: 429, message: "TOO_MANY_ATTEMPTS_TRY_LATER") }

    func errorResponse(status: Int, message: String) -> Response {
        let reason = status == 503 ? "backendError" : "invalid"
        return IdentityToolkitError(
            httpStatus: status, message: message, reason: reason, statusName: status == 400 ? nil : message
        ).response
    }

    func unroutedResponse(for request: Request) -> Response { IdentityToolkitError.notFound.response }

    func payloadTooLargeResponse() -> Response { IdentityToolkitError.payloadTooLarge.response }

    func faultSettingsChanged(_ settings: FaultSettings) async {
        clockSkew.set(seconds: settings.clockSkewSeconds)
        await state.setTokenLifetime(settings.tokenTtlSeconds)
        await state.setExpiresInText(settings.tokenExpiresIn)
    }

    /// The checks every operation shares (a bearer other than `owner` is 401, no API key 403,
    /// project-scoped paths and admin operations need privilege), then the operation.
    func respond(
        to request: Request, body: [UInt8], operation: IdentityToolkitOperation, projectScoped: Bool
    ) async throws(IdentityToolkitError) -> Response {
        let privileged = try Self.isPrivileged(request, allowBearer: operation.honoursBearer)
        let query = request.queryFields
        if !privileged {
            let key = query["key"] ?? request.header("x-goog-api-key") ?? ""
            if key.isEmpty { throw .missingAPIKey }
            if projectScoped || operation.privilegedOnly { throw .insufficientPermission }
        }
        return try await operation.perform(
            state,
            Call(
                body: body, query: query, contentType: request.header("content-type")?.lowercased() ?? "",
                operation: operation.name, privileged: privileged, baseURL: request.origin(fallbackHost: fallbackHost),
                identityProvider: identityProvider))
    }

    /// `Bearer owner` (any case) or `Bearer ya29.…` is privileged; any other bearer value is a
    /// 401 (when bearers are honoured at all); other schemes are ignored.
    static func isPrivileged(_ request: Request, allowBearer: Bool) throws(IdentityToolkitError) -> Bool {
        guard allowBearer, let token = request.bearerToken else { return false }
        if token.lowercased() == "owner" || token.hasPrefix("ya29.") { return true }
        throw IdentityToolkitError.unauthenticated
    }

    /// One routed, authorised Identity Toolkit call.
    struct Call: Sendable {
        /// The body, as ``EmulatorMiddleware`` read it.
        let body: [UInt8]
        let query: [String: String]
        /// `Content-Type`, lower-cased (`""` without one).
        let contentType: String
        /// The operation's name (`accounts:signUp`, `token`…).
        let operation: String
        let privileged: Bool
        /// `http://host:port` of the port, as the client addressed it (for links).
        let baseURL: String
        /// The fake identity providers, for code exchanges and access-token lookups.
        let identityProvider: FakeIdentityProvider

        /// The typed body of the call, after the checks every operation shares: `tenantId` is
        /// not supported (501), `targetProjectId` needs privilege.
        func body<Body: IdentityToolkitRequest>(_ type: Body.Type) throws(IdentityToolkitError) -> Body {
            let json = try jsonBody()
            let body = try IdentityToolkitRequestDecoding.decode(type, from: json)
            let tenancy = try IdentityToolkitRequestDecoding.decode(TenancyFields.self, from: json)
            if tenancy.targetProjectId != nil && !privileged { throw .insufficientPermission }
            if tenancy.tenantId != nil {
                throw .notImplemented("NOT_IMPLEMENTED : sesame-emulator does not support multi-tenancy (tenantId).")
            }
            return body
        }

        /// The body as JSON: `accounts:batchGet` adds the query's fields; the Secure Token body
        /// may be form-urlencoded, with the query's fields (but `key`) added.
        private func jsonBody() throws(IdentityToolkitError) -> [UInt8] {
            var fields: [String: JSONValue] = [:]
            switch operation {
            case "token":
                let firstByte = body.first { !JSONCoding.isWhitespace($0) }
                if contentType.contains("json") || firstByte == UInt8(ascii: "{") { return body }
                for (k, v) in PercentEncoding.formFields(String(decoding: body, as: UTF8.self)) where fields[k] == nil {
                    fields[k] = .string(v)
                }
                for (k, v) in query where k != "key" && fields[k] == nil { fields[k] = .string(v) }
            case "accounts:batchGet":
                if !body.isEmpty {
                    fields = try IdentityToolkitRequestDecoding.decode([String: JSONValue].self, from: body)
                }
                for (name, value) in query where fields[name] == nil { fields[name] = .string(value) }
            default: return body
            }
            return JSONValue.object(fields).serialized()
        }
    }
}
