import Foundation
import HTTPTypes
import Hummingbird

/// The Auth emulator's HTTP surface (reference §1, §4, §7, §10): routes a request to the
/// ``AccountStore`` operation, after the API-key and `Authorization: Bearer owner` checks.
struct AuthEndpoints: EmulatorEndpoints {
    let state: AccountStore
    let projectId: String
    /// `host:port` used for links when a request has no `Host` header.
    let fallbackHost: String
    /// The port's clock skew (fault `clockSkewSeconds`), read by ``state``'s clock.
    let clockSkew: ClockSkew

    static let identityToolkit = "/identitytoolkit.googleapis.com/v1/"
    static let secureToken = "/securetoken.googleapis.com/v1/token"
    static let legacyPrefix = "/www.googleapis.com/identitytoolkit/v3/relyingparty/"
    static let legacyNames: [String: String] = [
        "signupNewUser": "accounts:signUp", "verifyPassword": "accounts:signInWithPassword",
        "getOobConfirmationCode": "accounts:sendOobCode", "emailLinkSignin": "accounts:signInWithEmailLink",
        "verifyAssertion": "accounts:signInWithIdp", "setAccountInfo": "accounts:update",
        "getAccountInfo": "accounts:lookup", "deleteAccount": "accounts:delete",
        "createAuthUri": "accounts:createAuthUri",
        "resetPassword": "accounts:resetPassword", "verifyCustomToken": "accounts:signInWithCustomToken",
    ]

    /// Identity Toolkit operations that exist but that this emulator does not implement (501).
    static let knownUnsupported: Set<String> = [
        "accounts:sendVerificationCode", "accounts:signInWithPhoneNumber", "accounts:batchCreate",
        "accounts:signInWithGameCenter", "accounts:revokeToken", "accounts:verifyIosClient",
        "accounts:mfaEnrollment:start", "accounts:mfaEnrollment:finalize", "accounts:mfaSignIn:start",
        "accounts:mfaSignIn:finalize", "accounts:issueSamlResponse",
    ]

    /// A request routed to an Identity Toolkit operation.
    struct Route {
        /// `accounts:signUp`, `accounts` (admin create), `token`…
        var operation: String
        /// Whether the path is project-scoped (`/v1/projects/{p}/…`).
        var projectScoped: Bool
    }

    func addRoutes(to router: Router<EmulatorRequestContext>) {
        router.route("/", .get) { _ in
            .json([
                "authEmulator": [
                    "ready": true, "docs": "https://firebase.google.com/docs/emulator-suite",
                    "apiSpec": "/emulator/openapi.json",
                ]
            ])
        }
        for method in [HTTPRequest.Method.post, .get] {
            router.route("/identitytoolkit.googleapis.com/v1/{operation}", method) { request in
                let operation = request.parameters["operation"] ?? ""
                guard operation.hasPrefix("accounts:") else { return Self.reply(IdentityToolkitError.notFound) }
                return await respond(to: request, route: Route(operation: operation, projectScoped: false))
            }
            router.route("/identitytoolkit.googleapis.com/v1/projects/{project}/{operation}", method) { request in
                let operation = request.parameters["operation"] ?? ""
                guard operation == "accounts" || operation.hasPrefix("accounts:") else {
                    return Self.reply(IdentityToolkitError.notFound)
                }
                return await respond(to: request, route: Route(operation: operation, projectScoped: true))
            }
        }
        router.route("/securetoken.googleapis.com/v1/token", .post) { request in
            await respond(to: request, route: Route(operation: "token", projectScoped: false))
        }
        router.route("/www.googleapis.com/identitytoolkit/v3/relyingparty/{name}", .post) { request in
            guard let operation = Self.legacyNames[request.parameters["name"] ?? ""] else {
                return Self.reply(IdentityToolkitError.notFound)
            }
            return await respond(to: request, route: Route(operation: operation, projectScoped: false))
        }
        addEmulatorRoutes(to: router)
    }

    /// The operation a path names, for the call counters (routed or not).
    static func operationName(_ path: String) -> String? {
        if path == secureToken { return "token" }
        if path.hasPrefix(legacyPrefix) { return legacyNames[String(path.dropFirst(legacyPrefix.count))] }
        guard path.hasPrefix(identityToolkit) else { return nil }
        let parts = path.dropFirst(identityToolkit.count).split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 1, parts[0].hasPrefix("accounts:") { return String(parts[0]) }
        if parts.count == 3, parts[0] == "projects", !parts[1].isEmpty,
            parts[2] == "accounts" || parts[2].hasPrefix("accounts:")
        {
            return String(parts[2])
        }
        return nil
    }

    func callKey(for request: EmulatorRequest) -> String? {
        Self.operationName(request.path)
    }

    func errorReply(status: Int, message: String) -> EmulatorReply {
        let reason = status == 503 ? "backendError" : "invalid"
        return Self.reply(
            IdentityToolkitError(
                httpStatus: status, message: message, reason: reason, status: status == 400 ? nil : message))
    }

    func unroutedReply(for request: EmulatorRequest) -> EmulatorReply {
        Self.reply(IdentityToolkitError.notFound)
    }

    func payloadTooLargeReply() -> EmulatorReply {
        Self.reply(IdentityToolkitError.payloadTooLarge)
    }

    func faultSettingsChanged(_ settings: FaultSettings) async {
        clockSkew.set(seconds: settings.clockSkewSeconds)
        await state.setTokenLifetime(settings.tokenTtlSeconds)
        await state.setExpiresInText(settings.tokenExpiresIn)
    }

    static func reply(_ error: IdentityToolkitError) -> EmulatorReply {
        .encoded(error.envelope, status: error.httpStatus)
    }

    func respond(to request: EmulatorRequest, route: Route) async -> EmulatorReply {
        do {
            return try await dispatch(request, route: route)
        } catch let error as IdentityToolkitError {
            return Self.reply(error)
        } catch {
            return Self.reply(
                IdentityToolkitError(httpStatus: 500, message: "INTERNAL", reason: "backendError", status: "INTERNAL"))
        }
    }

    private func dispatch(_ request: EmulatorRequest, route: Route) async throws -> EmulatorReply {
        let isGet = route.operation == "accounts:batchGet"
        guard request.method == (isGet ? "GET" : "POST") else { throw IdentityToolkitError.notFound }
        let privileged = try Self.isPrivileged(request, allowBearer: route.operation != "token")
        if !privileged {
            let key = request.query["key"] ?? request.header("x-goog-api-key") ?? ""
            if key.isEmpty { throw IdentityToolkitError.missingAPIKey }
            if route.projectScoped { throw IdentityToolkitError.insufficientPermission }
        }
        return try await perform(Call(request: request, route: route, privileged: privileged))
    }

    /// `Bearer owner` (any case) or `Bearer ya29.…` is privileged; any other bearer value is a
    /// 401 (when bearers are honoured at all); other schemes are ignored.
    static func isPrivileged(_ request: EmulatorRequest, allowBearer: Bool) throws(IdentityToolkitError) -> Bool {
        guard allowBearer, let header = request.header("authorization") else { return false }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return false }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        if token.lowercased() == "owner" || token.hasPrefix("ya29.") { return true }
        throw IdentityToolkitError.unauthenticated
    }

    func baseURL(_ request: EmulatorRequest) -> String {
        "http://" + (request.header("host") ?? fallbackHost)
    }
}
