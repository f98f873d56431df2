import HTTPTypes
import Hummingbird
import SesameCore
import SesameLocalAPI

extension AuthEndpoints {
    /// The readiness probe `/`, `/emulator/v1/projects/{p}/oobCodes|accounts|config` and
    /// `/emulator/action` (§7).
    static let emulatorOperations: [EmulatorOperation<AuthEndpoints>] = {
        let project = "/emulator/v1/projects/{project}"
        return [
            EmulatorOperation(.get, "/") { _, _, _ in
                [
                    "authEmulator": [
                        "ready": true, "docs": "https://firebase.google.com/docs/emulator-suite",
                        "apiSpec": "/emulator/openapi.json",
                    ]
                ] as JSONValue
            },
            EmulatorOperation(.get, "\(project)/oobCodes") { auth, _, _ in
                Response.json(["oobCodes": await auth.state.oobCodes])
            },
            EmulatorOperation(.delete, "\(project)/accounts") { auth, _, _ in await auth.state.deleteAllAccounts() },
            EmulatorOperation(.get, "\(project)/config") { auth, _, _ in await auth.state.config.json },
            EmulatorOperation(.patch, "\(project)/config") { auth, _, context in
                let body = try IdentityToolkitRequestDecoding.decode(ConfigPatchRequest.self, from: context.body)
                return await auth.state.patchConfiguration(body)
            },
            EmulatorOperation(.get, "/emulator/action") { auth, request, _ in await auth.action(request.queryFields) },
            EmulatorOperation(.post, "/oauth2.googleapis.com/token") { _, request, context in
                Self.serviceAccountToken(context.form(request))
            },
        ]
    }()

    /// Google's OAuth token endpoint for a service account's signed JWT (the JWT bearer grant of
    /// RFC 7523), as the Admin SDK and google-auth use it: an access token the emulator treats
    /// as privileged (`ya29.…`). The assertion's signature is not checked: the emulator has no
    /// Google keys, and trusts any caller as Google's emulator trusts `Bearer owner`.
    static func serviceAccountToken(_ form: [String: String]) -> Response {
        let grant = form["grant_type"] ?? ""
        guard grant == "urn:ietf:params:oauth:grant-type:jwt-bearer" else {
            return .json(
                ["error": "unsupported_grant_type", "error_description": .string("Invalid grant_type: \(grant)")]
                    as JSONValue, status: .badRequest)
        }
        guard let assertion = form["assertion"], assertion.split(separator: ".").count == 3 else {
            return .json(
                ["error": "invalid_grant", "error_description": "Invalid JWT."] as JSONValue, status: .badRequest)
        }
        let token = "ya29.sesame-emulator-" + RandomIdentifier.make(40, from: RandomIdentifier.urlSafe)
        return .json(["access_token": .string(token), "expires_in": 3599, "token_type": "Bearer"] as JSONValue)
    }

    private static func actionError(_ message: String) -> Response {
        .json(["authEmulator": ["error": .string(message)]] as JSONValue, status: .badRequest)
    }

    /// What a user "clicks" in an emailed link: signIn redirects (303) to `continueUrl` with the
    /// other query parameters; verifyEmail, resetPassword (needs `newPassword`), recoverEmail and
    /// verifyAndChangeEmail apply the code, then redirect to `continueUrl` when one is given.
    func action(_ query: [String: String]) async -> Response {
        guard let mode = query["mode"].nonEmpty else { return Self.actionError("missing mode query parameter") }
        guard let code = query["oobCode"].nonEmpty else { return Self.actionError("missing oobCode query parameter") }
        let continueUrl = query["continueUrl"].nonEmpty
        let success: JSONValue
        do throws(IdentityToolkitError) {
            switch mode {
            case "signIn":
                guard continueUrl != nil else { return Self.actionError("missing continueUrl query parameter") }
                success = [:]
            case "verifyEmail", "recoverEmail", "verifyAndChangeEmail":
                let email = try await state.applyActionCode(code).email ?? ""
                success = [
                    "authEmulator": ["success": "The email has been successfully verified.", "email": .string(email)]
                ]
            case "resetPassword":
                guard let newPassword = query["newPassword"] else {
                    return Self.actionError("missing newPassword query parameter")
                }
                let body = try IdentityToolkitRequestDecoding.decode(
                    ResetPasswordRequest.self, fields: ["oobCode": .string(code), "newPassword": .string(newPassword)])
                _ = try await state.resetPassword(body)
                success = ["authEmulator": ["success": "The password has been successfully updated."]]
            default:
                return Self.actionError("unsupported mode \(mode)")
            }
        } catch {
            return Self.actionError(error.message)
        }
        guard let continueUrl else { return .json(success) }
        let extras = ["mode", "lang", "oobCode", "apiKey", "tenantId"].compactMap { name in
            query[name].map { (name, $0) }
        }
        let (base, fragment) = continueUrl.splitAtFragment
        let added = extras.isEmpty ? "" : (base.contains("?") ? "&" : "?") + PercentEncoding.form(extras)
        return .empty(.seeOther, headers: [.location: base + added + fragment])
    }
}
