import Foundation

/// Routes `/auth/v1/*` to the ``GoTrueStore`` operations and renders GoTrue's replies.
struct GoTrueRouter: Sendable {
    static let prefix = "/auth/v1"
    static let apiVersionHeader = "X-Supabase-Api-Version"
    static let apiVersion = "2024-01-01"

    let store: GoTrueStore

    /// The fault extension's counter name: the path without `/auth/v1/`, with ids dropped
    /// (`token`, `signup`, `admin/users`).
    static func callKey(_ subpath: String) -> String {
        subpath.hasPrefix("admin/users/") ? "admin/users" : subpath
    }

    /// Whether the request asked for the 2024-01-01 error shape.
    static func isVersioned(_ request: EmulatorRequest) -> Bool {
        guard let value = request.header(apiVersionHeader)?.trimmingCharacters(in: .whitespaces),
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

    /// Answers `request`, whose path is `/auth/v1/<subpath>`; `origin` is `http://host:port`.
    func respond(_ request: EmulatorRequest, subpath: String, origin: String) async -> EmulatorReply {
        let versioned = Self.isVersioned(request)
        let echo = versioned ? [(Self.apiVersionHeader, Self.apiVersion)] : []
        if request.method == "GET" && subpath == "verify" {
            return await verifyLink(request, origin: origin)
        }
        do {
            var reply = try await dispatch(request, subpath: subpath, origin: origin)
            reply.headers += echo
            return reply
        } catch {
            return error.reply(versioned: versioned)
        }
    }

    private func dispatch(_ request: EmulatorRequest, subpath: String, origin: String) async throws(GoTrueError) -> EmulatorReply {
        let issuer = origin + Self.prefix
        let bearer = Self.bearer(request)
        switch (request.method, subpath) {
        case ("GET", "health"):
            return .json(["version": "sesame-emulator", "name": "GoTrue", "description": "GoTrue-compatible emulator"])
        case ("GET", "settings"):
            return .json(await settings())
        case ("POST", "signup"):
            return .json(try await store.signUp(try Self.body(request), issuer: issuer, origin: origin))
        case ("POST", "token"):
            let body = try Self.body(request)
            switch request.query["grant_type"] {
            case "password": return .json(try await store.passwordGrant(body, issuer: issuer))
            case "refresh_token": return .json(try await store.refreshGrant(body, issuer: issuer))
            case "id_token": return .json(try await store.idTokenGrant(body, bearer: bearer, issuer: issuer))
            default: throw .badRequest("invalid_credentials", "unsupported_grant_type")
            }
        case ("POST", "otp"):
            return .json(try await store.sendOTP(try Self.body(request), origin: origin))
        case ("POST", "verify"):
            return .json(try await store.verify(try Self.body(request), issuer: issuer).session)
        case ("POST", "recover"):
            return .json(try await store.recover(try Self.body(request), origin: origin))
        case ("GET", "user"):
            return .json(try await store.currentUser(bearer: bearer))
        case ("PUT", "user"):
            return .json(try await store.updateUser(try Self.body(request), bearer: bearer, origin: origin))
        case ("POST", "logout"):
            try await store.logout(scope: request.query["scope"], bearer: bearer)
            return EmulatorReply(status: 204)
        default:
            break
        }
        guard subpath.hasPrefix("admin/") else {
            throw GoTrueError(status: 404, code: "not_found", message: "No GoTrue endpoint \(request.method) /auth/v1/\(subpath); see docs/emulator.md for the supported ones")
        }
        try await store.requireAdmin(bearer: bearer)
        return try await admin(request, subpath: subpath, origin: origin)
    }

    private func admin(_ request: EmulatorRequest, subpath: String, origin: String) async throws(GoTrueError) -> EmulatorReply {
        switch (request.method, subpath) {
        case ("GET", "admin/users"):
            let page = request.query["page"].flatMap(Int.init) ?? 1
            let perPage = min(1000, max(1, request.query["per_page"].flatMap(Int.init) ?? 50))
            let (body, total) = await store.listUsers(page: page, perPage: perPage)
            return .json(body, headers: [("x-total-count", String(total))])
        case ("POST", "admin/users"):
            return .json(try await store.adminCreateUser(try Self.body(request)))
        case ("POST", "admin/generate_link"):
            return .json(try await store.generateLink(try Self.body(request), origin: origin))
        default:
            break
        }
        if subpath.hasPrefix("admin/users/") {
            let id = String(subpath.dropFirst("admin/users/".count))
            switch request.method {
            case "GET": return .json(try await store.adminUser(id).json)
            case "PUT": return .json(try await store.adminUpdateUser(id, try Self.body(request)))
            case "DELETE": return .json(try await store.adminDeleteUser(id))
            default: break
            }
        }
        throw GoTrueError(status: 404, code: "not_found", message: "No GoTrue admin endpoint \(request.method) /auth/v1/\(subpath)")
    }

    /// `GET /verify?token=<token_hash>&type=…&redirect_to=…`: redirects with the session in the
    /// URL fragment, or with `error`, `error_code`, `error_description`.
    private func verifyLink(_ request: EmulatorRequest, origin: String) async -> EmulatorReply {
        let body: [String: JSON] = [
            "type": .string(request.query["type"] ?? ""), "token_hash": .string(request.query["token"] ?? ""),
        ]
        var target = request.query["redirect_to"] ?? origin
        do {
            let (session, stored) = try await store.verify(body, issuer: origin + Self.prefix)
            target = request.query["redirect_to"] ?? stored ?? origin
            if let message = session["msg"]?.stringValue {
                return EmulatorReply(status: 303, headers: [("Location", target + "#message=" + FormURLEncoding.escape(message))])
            }
            let fields = ["access_token", "expires_at", "expires_in", "refresh_token", "token_type"].map { key in
                let value = session[key].map { $0.stringValue ?? $0.serialized() } ?? ""
                return "\(key)=\(FormURLEncoding.escape(value))"
            }
            target += "#" + (fields + ["type=\(FormURLEncoding.escape(body["type"]?.stringValue ?? ""))"]).joined(separator: "&")
        } catch {
            target += "#error=access_denied&error_code=\(error.code)&error_description=\(FormURLEncoding.escape(error.message))"
        }
        return EmulatorReply(status: 303, headers: [("Location", target)], body: nil)
    }

    private func settings() async -> JSON {
        let configuration = store.configuration
        return [
            "external": [
                "anonymous_users": .bool(configuration.anonymousSignIns), "email": true, "phone": false,
                "google": true, "apple": true, "azure": true, "facebook": true, "keycloak": true, "kakao": true,
                "github": false,
            ],
            "disable_signup": false, "mailer_autoconfirm": .bool(configuration.autoconfirm),
            "phone_autoconfirm": false, "sms_provider": "", "saml_enabled": false,
        ]
    }

    /// The JSON object body; an empty body is `{}`.
    static func body(_ request: EmulatorRequest) throws(GoTrueError) -> [String: JSON] {
        if request.body.isEmpty { return [:] }
        let parsed: JSON
        do {
            parsed = try JSON.parse(request.body)
        } catch {
            throw .badJSON(error.message)
        }
        guard case .object(let fields) = parsed else { throw .badJSON("expected a JSON object") }
        return fields
    }
}
