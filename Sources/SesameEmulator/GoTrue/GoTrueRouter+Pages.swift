import SesameCore
import SesameLocalAPI

/// The GoTrue answers that are not plain store calls: the `GET /verify` link and `/settings`.
extension GoTrueRouter {
    /// `GET /verify?token=<token_hash>&type=…&redirect_to=…`: redirects with the session in the
    /// URL fragment, or with `error`, `error_code`, `error_description`.
    func verifyLink(_ request: EmulatorRequest, origin: String) async -> EmulatorReply {
        let body = VerifyBody(type: request.query["type"] ?? "", tokenHash: request.query["token"] ?? "")
        var target = request.query["redirect_to"] ?? origin
        do {
            let (session, stored) = try await store.verify(body, issuer: origin + Self.prefix)
            target = request.query["redirect_to"] ?? stored ?? origin
            if let message = session["msg"]?.stringValue {
                return EmulatorReply(
                    status: 303, headers: [("Location", target + "#message=" + PercentEncoding.queryValue(message))])
            }
            let fields = ["access_token", "expires_at", "expires_in", "refresh_token", "token_type"].map { key in
                let value = session[key].map { $0.stringValue ?? $0.jsonString } ?? ""
                return "\(key)=\(PercentEncoding.queryValue(value))"
            }
            target += "#" + (fields + ["type=\(PercentEncoding.queryValue(body.type ?? ""))"]).joined(separator: "&")
        } catch {
            target +=
                "#error=access_denied&error_code=\(error.code)&error_description=\(PercentEncoding.queryValue(error.message))"
        }
        return EmulatorReply(status: 303, headers: [("Location", target)], body: nil)
    }

    func settings() async -> JSONValue {
        let configuration = store.configuration
        return [
            "external": [
                "anonymous_users": .bool(configuration.anonymousSignIns), "email": true, "phone": false,
                "google": true, "apple": true, "azure": true, "facebook": true, "keycloak": true, "kakao": true,
                "github": true,
            ],
            "disable_signup": false, "mailer_autoconfirm": .bool(configuration.autoconfirm),
            "phone_autoconfirm": false, "sms_provider": "", "saml_enabled": false,
        ]
    }
}
