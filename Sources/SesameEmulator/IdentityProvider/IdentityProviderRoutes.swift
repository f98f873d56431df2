import Foundation
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

    func add(to router: Router<EmulatorRequestContext>) {
        router.route(RouterPath(Self.base + "device/code"), .post) { request in await deviceCode(request) }
        router.route(RouterPath(Self.base + "token"), .post) { request in await token(request) }
        router.route(RouterPath(Self.base + "device"), .get) { request in
            IdentityProviderPages.device(
                providerId: Self.providerId(request), userCode: request.query["user_code"] ?? "", problem: nil)
        }
        router.route(RouterPath(Self.base + "device"), .post) { request in await devicePage(request) }
        router.route(RouterPath(Self.base + "device/approve"), .post) { request in await approve(request) }
        router.route(RouterPath(Self.base + "authorize"), .get) { request in
            authorizePage(request, fields: request.query)
        }
        router.route(RouterPath(Self.base + "authorize"), .post) { request in await authorizeDecision(request) }
        for path in [FakeIdentityProvider.prefix + "/config", Self.base + "config"] {
            router.route(RouterPath(path), .get) { _ in .json(await provider.configuration()) }
            router.route(RouterPath(path), .post) { request in await configure(request) }
        }
        router.route(RouterPath(Self.base + ".well-known/openid-configuration"), .get) { request in
            discovery(request)
        }
        router.route(RouterPath(Self.base + "jwks"), .get) { _ in .json(provider.signer.jwks) }
    }

    /// The fault extension's counter name of a fake-provider route: `idp:` and the path after
    /// the provider id (`idp:token`, `idp:device/code`, `idp:device/approve`), whatever the
    /// provider; `nil` for other routes.
    static func callKey(route: String?) -> String? {
        let prefix = FakeIdentityProvider.prefix + "/{provider}/"
        guard let route, route.hasPrefix(prefix) else { return nil }
        return "idp:" + route.dropFirst(prefix.count)
    }

    static func providerId(_ request: EmulatorRequest) -> String { request.parameters["provider"] ?? "" }

    func origin(_ request: EmulatorRequest) -> String { "http://" + (request.header("host") ?? fallbackHost) }

    func issuer(_ request: EmulatorRequest) -> String {
        FakeIdentityProvider.issuer(base: origin(request), providerId: Self.providerId(request))
    }

    /// The form fields of the body, with the query's added where the body has none.
    static func form(_ request: EmulatorRequest) -> [String: String] {
        var fields = PercentEncoding.formDictionary(String(decoding: request.body, as: UTF8.self))
        for (name, value) in request.query where fields[name] == nil { fields[name] = value }
        return fields
    }

    static func nonEmpty(_ value: String?) -> String? { value.flatMap { $0.isEmpty ? nil : $0 } }

    /// `POST device/code`: RFC 8628 §3.2; Google names the URL `verification_url` and gives no
    /// `verification_uri_complete`.
    func deviceCode(_ request: EmulatorRequest) async -> EmulatorReply {
        let form = Self.form(request)
        let providerId = Self.providerId(request)
        let device = await provider.startDeviceAuthorization(
            providerId: providerId, clientId: Self.nonEmpty(form["client_id"]), scope: Self.nonEmpty(form["scope"]))
        let page = issuer(request) + "/device"
        var answer: [String: JSONValue] = [
            "device_code": .string(device.deviceCode), "user_code": .string(device.userCode),
            "expires_in": .int(await provider.deviceCodeLifetime), "interval": .int(device.interval),
        ]
        if providerId == "google.com" {
            answer["verification_url"] = .string(page)
        } else {
            answer["verification_uri"] = .string(page)
            answer["verification_uri_complete"] = .string(
                page + "?user_code=" + PercentEncoding.queryValue(device.userCode))
        }
        return .json(.object(answer), headers: [("Cache-Control", "no-store")])
    }

    /// `POST token`: the device_code and authorization_code grants; always JSON.
    func token(_ request: EmulatorRequest) async -> EmulatorReply {
        let form = Self.form(request)
        let providerId = Self.providerId(request)
        do throws(OAuthError) {
            let tokens: FakeIdentityProvider.TokenSet
            switch form["grant_type"] {
            case "urn:ietf:params:oauth:grant-type:device_code":
                guard let code = Self.nonEmpty(form["device_code"]) else {
                    throw .invalidRequest("device_code is required.")
                }
                tokens = try await provider.poll(
                    deviceCode: code, providerId: providerId, clientId: form["client_id"], issuer: issuer(request))
            case "authorization_code":
                guard let code = Self.nonEmpty(form["code"]) else { throw .invalidRequest("code is required.") }
                tokens = try await provider.exchange(
                    code: code, providerId: providerId, redirectUri: Self.nonEmpty(form["redirect_uri"]),
                    codeVerifier: Self.nonEmpty(form["code_verifier"]), issuer: issuer(request))
            case nil, "":
                throw .invalidRequest("grant_type is required.")
            default:
                throw .init(
                    error: "unsupported_grant_type",
                    description: "Supported: urn:ietf:params:oauth:grant-type:device_code, authorization_code.")
            }
            return .json(tokens.json, headers: [("Cache-Control", "no-store")])
        } catch {
            return error.reply
        }
    }

    /// `POST device`: the verification page's form.
    func devicePage(_ request: EmulatorRequest) async -> EmulatorReply {
        let form = Self.form(request)
        let providerId = Self.providerId(request)
        let userCode = form["user_code"] ?? ""
        let email = (form["email"] ?? "").trimmingCharacters(in: .whitespaces)
        let name = form["name"] ?? ""
        let approve = form["action"] != "deny"
        if approve && !Self.looksLikeEmail(email) {
            return IdentityProviderPages.device(
                providerId: providerId, userCode: userCode, email: email, name: name,
                problem: "Enter an email address to approve.")
        }
        let identity = approve ? FakeIdentity(providerId: providerId, email: email, name: name) : nil
        do {
            try await provider.decide(userCode: userCode, providerId: providerId, identity: identity)
            return IdentityProviderPages.deviceDone(approved: approve)
        } catch {
            let problem =
                switch error.error {
                case "expired_token": "This code has expired. Start again on your device."
                case "invalid_user_code": "No device is waiting for this code. Check it and try again."
                default: "This code was already approved or denied."
                }
            return IdentityProviderPages.device(
                providerId: providerId, userCode: userCode, email: email, name: name, problem: problem)
        }
    }

    static func looksLikeEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty && !text.contains(" ")
    }

    /// `POST device/approve {userCode, email, sub?, name?, deny?}` (test hook).
    func approve(_ request: EmulatorRequest) async -> EmulatorReply {
        guard case .object(let body)? = try? JSONCoding.parse(request.body) else {
            return OAuthError.invalidRequest("The body must be a JSON object.").reply
        }
        let providerId = Self.providerId(request)
        let deny = body["deny"]?.boolValue ?? false
        guard let userCode = body["userCode"]?.stringValue, !userCode.isEmpty else {
            return OAuthError.invalidRequest("userCode is required.").reply
        }
        var identity: FakeIdentity?
        if !deny {
            guard let email = body["email"]?.stringValue, Self.looksLikeEmail(email) else {
                return OAuthError.invalidRequest("email is required to approve.").reply
            }
            identity = FakeIdentity(
                providerId: providerId, email: email, sub: body["sub"]?.stringValue, name: body["name"]?.stringValue)
        }
        do {
            try await provider.decide(userCode: userCode, providerId: providerId, identity: identity)
            return .json([:])
        } catch {
            return error.reply
        }
    }

    /// `POST config {deviceCodeLifetimeSeconds?, intervalSeconds?}` (test knob, all providers).
    func configure(_ request: EmulatorRequest) async -> EmulatorReply {
        guard case .object(let body)? = try? JSONCoding.parse(request.body.isEmpty ? Array("{}".utf8) : request.body)
        else { return OAuthError.invalidRequest("The body must be a JSON object.").reply }
        do {
            return .json(
                try await provider.configure(
                    lifetime: body["deviceCodeLifetimeSeconds"]?.intValue, interval: body["intervalSeconds"]?.intValue))
        } catch {
            return error.reply
        }
    }

    /// OpenID Connect discovery for the provider.
    func discovery(_ request: EmulatorRequest) -> EmulatorReply {
        let issuer = issuer(request)
        return .json([
            "issuer": .string(issuer), "authorization_endpoint": .string(issuer + "/authorize"),
            "token_endpoint": .string(issuer + "/token"),
            "device_authorization_endpoint": .string(issuer + "/device/code"),
            "jwks_uri": .string(issuer + "/jwks"), "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "urn:ietf:params:oauth:grant-type:device_code"],
            "id_token_signing_alg_values_supported": ["ES256"], "code_challenge_methods_supported": ["S256", "plain"],
            "subject_types_supported": ["public"],
        ])
    }
}
