import HTTPTypes
import Hummingbird
import SesameCore
import SesameLocalAPI

/// Sign-up, the `/token` grants, the mailed codes and the signed-in user's own endpoints.
extension GoTrueOperation {
    static let session: [GoTrueOperation] = [
        GoTrueOperation(.get, "health", .open) { _, _ throws(GoTrueError) in
            // GoTrue's own words (api.go HealthCheck); the version is the emulator's.
            [
                "version": .string(SesameVersion.current), "name": "GoTrue",
                "description": "GoTrue is a user registration and authentication API",
            ] as JSONValue
        },
        GoTrueOperation(.get, ".well-known/jwks.json", .open) { store, _ throws(GoTrueError) in
            // GoTrue's WellKnownJwks: public keys only, cached by clients for 10 minutes.
            Response.json(store.jwt.jwks, headers: [.cacheControl: "public, max-age=600"])
        },
        GoTrueOperation(.get, "settings") { store, _ throws(GoTrueError) in settings(store.configuration) },
        GoTrueOperation(.post, "signup") { store, call throws(GoTrueError) in
            try await store.signUp(call.body(), issuer: call.issuer, origin: call.origin)
        },
        GoTrueOperation(.post, "token") { store, call throws(GoTrueError) in
            switch call.query["grant_type"] {
            case "password": return try await store.passwordGrant(call.body(), issuer: call.issuer)
            case "refresh_token": return try await store.refreshGrant(call.body(), issuer: call.issuer)
            case "id_token": return try await store.idTokenGrant(call.body(), bearer: call.bearer, issuer: call.issuer)
            case "pkce": return try await store.pkceGrant(call.body(), issuer: call.issuer)
            default: throw .badRequest("invalid_credentials", "unsupported_grant_type")
            }
        },
        GoTrueOperation(.post, "otp") { store, call throws(GoTrueError) in
            try await store.sendOTP(call.body(), origin: call.origin)
        },
        GoTrueOperation(.post, "resend") { store, call throws(GoTrueError) in
            try await store.resend(call.body(), origin: call.origin, redirectTo: call.redirectTo)
        },
        GoTrueOperation(.post, "verify", .open) { store, call throws(GoTrueError) in
            try await store.verify(call.body(), issuer: call.issuer).session
        },
        GoTrueOperation(.get, "verify", .browser) { store, call throws(GoTrueError) in await verifyLink(store, call) },
        GoTrueOperation(.post, "recover") { store, call throws(GoTrueError) in
            try await store.recover(call.body(), origin: call.origin)
        },
        GoTrueOperation(.get, "user") { store, call throws(GoTrueError) in
            try await store.authenticate(bearer: call.bearer).0.json
        },
        GoTrueOperation(.put, "user") { store, call throws(GoTrueError) in
            try await store.updateUser(call.body(), bearer: call.bearer, origin: call.origin)
        },
        GoTrueOperation(.post, "logout") { store, call throws(GoTrueError) in
            try await store.logout(scope: call.query["scope"], bearer: call.bearer)
            return Response.empty(.noContent)
        },
    ]

    /// `GET /verify?token=<token_hash>&type=…&redirect_to=…`: redirects with the session in the
    /// URL fragment, or with `error`, `error_code`, `error_description`.
    static func verifyLink(_ store: GoTrueStore, _ call: GoTrueCall) async -> Response {
        let body = VerifyBody(type: call.query["type"] ?? "", tokenHash: call.query["token"] ?? "")
        var target = call.query["redirect_to"] ?? call.origin
        do {
            let (session, stored) = try await store.verify(body, issuer: call.issuer)
            target = call.query["redirect_to"] ?? stored ?? call.origin
            if let message = session["msg"]?.stringValue {
                return redirect(.seeOther, to: target + "#message=" + PercentEncoding.queryValue(message))
            }
            target += "#" + PercentEncoding.form(fragmentFields(of: session) + [("type", body.type ?? "")])
        } catch {
            let fields = [("error", "access_denied"), ("error_code", error.code), ("error_description", error.message)]
            target += "#" + PercentEncoding.form(fields)
        }
        return redirect(.seeOther, to: target)
    }

    /// A session's fields as a redirect's fragment carries them (implicit flow).
    static func fragmentFields(of session: JSONValue) -> [(String, String)] {
        ["access_token", "expires_at", "expires_in", "refresh_token", "token_type"].map { key in
            (key, session[key].map { $0.stringValue ?? $0.jsonString } ?? "")
        }
    }

    /// A redirect without a body.
    static func redirect(_ status: HTTPResponse.Status, to location: String) -> Response {
        Response.empty(status, headers: [.location: location])
    }

    static func settings(_ configuration: SupabaseEmulatorConfiguration) -> JSONValue {
        [
            "external": [
                "anonymous_users": .bool(configuration.anonymousSignIns), "email": true, "phone": false,
                "google": true, "apple": true, "azure": true, "facebook": true, "keycloak": true, "kakao": true,
                "github": true,
            ],
            "disable_signup": .bool(!configuration.signupEnabled),
            "mailer_autoconfirm": .bool(configuration.autoconfirm),
            "phone_autoconfirm": false, "sms_provider": "", "saml_enabled": false,
        ]
    }
}
