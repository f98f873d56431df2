import Foundation
import HTTPTypes
import Hummingbird
import SesameCore
import SesameLocalAPI

/// The fake identity provider's routes, `/emulator/v1/idp/{provider}/…`, added to the auth
/// port and the Supabase port alike; all of them share one ``FakeIdentityProvider``.
struct IdentityProviderRoutes: Sendable {
    let provider: FakeIdentityProvider
    /// `host:port` used for URLs when a request has no `Host` header.
    let fallbackHost: String

    static let base = FakeIdentityProvider.prefix + "/{provider}/"

    static let operations: [EmulatorOperation<Self>] = flowOperations + configOperations

    static let flowOperations: [EmulatorOperation<Self>] = [
        flow(.post, "device/code") { await $0.deviceCode($1) },
        flow(.post, "token") { try await $0.token($1) },
        EmulatorOperation(.get, base + "device") { _, request, context in
            IdentityProviderPages.device(
                providerId: context.parameter("provider"), userCode: request.queryFields["user_code"] ?? "",
                problem: nil)
        },
        flow(.post, "device") { await $0.devicePage($1) },
        flow(.post, "device/approve") { try await $0.approve($1) },
        EmulatorOperation(.get, base + "authorize") { _, request, context in
            authorizePage(providerId: context.parameter("provider"), fields: request.queryFields)
        },
        flow(.post, "authorize") { await $0.authorizeDecision($1) },
        flow(.get, ".well-known/openid-configuration") { discovery(issuer: $1.issuer) },
        flow(.get, "jwks") { routes, _ in routes.provider.signer.jwks },
    ]

    /// The operation at `base + path` that reads its request as a ``Call``.
    static func flow(
        _ method: HTTPRequest.Method, _ path: String,
        _ perform: @escaping @Sendable (Self, Call) async throws -> any ResponseGenerator
    ) -> EmulatorOperation<Self> {
        EmulatorOperation(method, base + path) { routes, request, context in
            try await perform(routes, Call(request, context, routes))
        }
    }

    /// The test knobs, for all providers or one.
    static let configOperations: [EmulatorOperation<Self>] = [FakeIdentityProvider.prefix + "/config", base + "config"]
        .flatMap { (path: String) -> [EmulatorOperation<Self>] in
            [
                EmulatorOperation(.get, path) { routes, _, _ in await routes.provider.configuration() },
                EmulatorOperation(.post, path) { routes, _, context in try await routes.configure(context.body) },
            ]
        }

    func add(to router: Router<EmulatorRequestContext>) { router.addRoutes(.of(Self.operations, state: self)) }

    /// The fault extension's counter name of a fake-provider route: `idp:` and the path after
    /// the provider id (`idp:token`, `idp:device/code`, `idp:device/approve`), whatever the
    /// provider; `nil` for other routes.
    static func callKey(route: String?) -> String? {
        guard let route, route.hasPrefix(base) else { return nil }
        return "idp:" + route.dropFirst(base.count)
    }

    /// What a provider route reads from its request: the provider, the body, the form (the
    /// body's fields, the query's where the body has none) and its issuer URL.
    struct Call: Sendable {
        let providerId: String
        let body: [UInt8]
        let form: [String: String]
        let issuer: String

        init(_ request: Request, _ context: EmulatorRequestContext, _ routes: IdentityProviderRoutes) {
            providerId = context.parameter("provider")
            body = context.body
            form = context.form(request)
            issuer = FakeIdentityProvider.issuer(
                base: request.origin(fallbackHost: routes.fallbackHost), providerId: providerId)
        }

        func field(_ name: String) -> String? { form[name].nonEmpty }
    }

    /// `POST device/code`: RFC 8628 §3.2; Google names the URL `verification_url` and gives no
    /// `verification_uri_complete`.
    func deviceCode(_ call: Call) async -> Response {
        let device = await provider.startDeviceAuthorization(
            providerId: call.providerId, clientId: call.field("client_id"), scope: call.field("scope"))
        let page = call.issuer + "/device"
        var answer: [String: JSONValue] = [
            "device_code": .string(device.deviceCode), "user_code": .string(device.userCode),
            "expires_in": .int(await provider.deviceCodeLifetime), "interval": .int(device.interval),
        ]
        if call.providerId == "google.com" {
            answer["verification_url"] = .string(page)
        } else {
            answer["verification_uri"] = .string(page)
            answer["verification_uri_complete"] = .string(
                page + "?user_code=" + PercentEncoding.queryValue(device.userCode))
        }
        return .json(JSONValue.object(answer), headers: [.cacheControl: "no-store"])
    }

    /// `POST token`: the device_code and authorization_code grants; always JSON.
    func token(_ call: Call) async throws(OAuthError) -> Response {
        let tokens: FakeIdentityProvider.TokenSet
        switch call.form["grant_type"] {
        case "urn:ietf:params:oauth:grant-type:device_code":
            guard let code = call.field("device_code") else { throw .invalidRequest("device_code is required.") }
            tokens = try await provider.poll(
                deviceCode: code, providerId: call.providerId, clientId: call.form["client_id"], issuer: call.issuer)
        case "authorization_code":
            guard let code = call.field("code") else { throw .invalidRequest("code is required.") }
            tokens = try await provider.exchange(
                code: code, providerId: call.providerId, redirectUri: call.field("redirect_uri"),
                codeVerifier: call.field("code_verifier"), issuer: call.issuer)
        case nil, "":
            throw .invalidRequest("grant_type is required.")
        default:
            throw .init(
                error: "unsupported_grant_type",
                description: "Supported: urn:ietf:params:oauth:grant-type:device_code, authorization_code.")
        }
        return .json(tokens.json, headers: [.cacheControl: "no-store"])
    }

    /// `POST device`: the verification page's form.
    func devicePage(_ call: Call) async -> Response {
        let userCode = call.form["user_code"] ?? ""
        let email = (call.form["email"] ?? "").trimmingCharacters(in: .whitespaces)
        let name = call.form["name"] ?? ""
        let approve = call.form["action"] != "deny"
        if approve && !Self.looksLikeEmail(email) {
            return IdentityProviderPages.device(
                providerId: call.providerId, userCode: userCode, email: email, name: name,
                problem: "Enter an email address to approve.")
        }
        let identity = approve ? FakeIdentity(providerId: call.providerId, email: email, name: name) : nil
        do {
            try await provider.decide(userCode: userCode, providerId: call.providerId, identity: identity)
            return IdentityProviderPages.deviceDone(approved: approve)
        } catch {
            let problem =
                switch error.error {
                case "expired_token": "This code has expired. Start again on your device."
                case "invalid_user_code": "No device is waiting for this code. Check it and try again."
                default: "This code was already approved or denied."
                }
            return IdentityProviderPages.device(
                providerId: call.providerId, userCode: userCode, email: email, name: name, problem: problem)
        }
    }

    static func looksLikeEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty && !text.contains(" ")
    }

    /// `POST device/approve {userCode, email, sub?, name?, deny?}` (test hook).
    func approve(_ call: Call) async throws(OAuthError) -> JSONValue {
        guard case .object(let body)? = try? JSONCoding.parse(call.body) else {
            throw .invalidRequest("The body must be a JSON object.")
        }
        let deny = body["deny"]?.boolValue ?? false
        guard let userCode = body["userCode"]?.stringValue, !userCode.isEmpty else {
            throw .invalidRequest("userCode is required.")
        }
        var identity: FakeIdentity?
        if !deny {
            guard let email = body["email"]?.stringValue, Self.looksLikeEmail(email) else {
                throw .invalidRequest("email is required to approve.")
            }
            identity = FakeIdentity(
                providerId: call.providerId, email: email, sub: body["sub"]?.stringValue,
                name: body["name"]?.stringValue)
        }
        try await provider.decide(userCode: userCode, providerId: call.providerId, identity: identity)
        return [:]
    }

    /// `POST config {deviceCodeLifetimeSeconds?, intervalSeconds?}` (test knob, all providers).
    func configure(_ bytes: [UInt8]) async throws(OAuthError) -> JSONValue {
        guard case .object(let body)? = try? JSONCoding.parse(bytes.isEmpty ? Array("{}".utf8) : bytes) else {
            throw .invalidRequest("The body must be a JSON object.")
        }
        return try await provider.configure(
            lifetime: body["deviceCodeLifetimeSeconds"]?.intValue, interval: body["intervalSeconds"]?.intValue)
    }

    /// OpenID Connect discovery for the provider.
    static func discovery(issuer: String) -> JSONValue {
        [
            "issuer": .string(issuer), "authorization_endpoint": .string(issuer + "/authorize"),
            "token_endpoint": .string(issuer + "/token"),
            "device_authorization_endpoint": .string(issuer + "/device/code"),
            "jwks_uri": .string(issuer + "/jwks"), "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "urn:ietf:params:oauth:grant-type:device_code"],
            "id_token_signing_alg_values_supported": ["ES256"], "code_challenge_methods_supported": ["S256", "plain"],
            "subject_types_supported": ["public"],
        ]
    }
}
