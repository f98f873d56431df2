import Foundation

/// The Auth emulator's HTTP surface (reference §1, §4, §7, §10): routes a request to the
/// ``AccountStore`` operation, after the API-key and `Authorization: Bearer owner` checks.
struct AuthEndpoints: EmulatorEndpoints {
    let state: AccountStore
    let projectId: String
    /// `host:port` used for links when a request has no `Host` header.
    let fallbackHost: String

    static let identityToolkit = "/identitytoolkit.googleapis.com/v1/"
    static let secureToken = "/securetoken.googleapis.com/v1/token"
    static let legacyPrefix = "/www.googleapis.com/identitytoolkit/v3/relyingparty/"
    static let legacyNames: [String: String] = [
        "signupNewUser": "accounts:signUp", "verifyPassword": "accounts:signInWithPassword",
        "getOobConfirmationCode": "accounts:sendOobCode", "emailLinkSignin": "accounts:signInWithEmailLink",
        "verifyAssertion": "accounts:signInWithIdp", "setAccountInfo": "accounts:update",
        "getAccountInfo": "accounts:lookup", "deleteAccount": "accounts:delete", "createAuthUri": "accounts:createAuthUri",
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

    static func route(_ path: String) -> Route? {
        if path == secureToken { return Route(operation: "token", projectScoped: false) }
        if path.hasPrefix(legacyPrefix) {
            let old = String(path.dropFirst(legacyPrefix.count))
            return legacyNames[old].map { Route(operation: $0, projectScoped: false) }
        }
        guard path.hasPrefix(identityToolkit) else { return nil }
        let rest = path.dropFirst(identityToolkit.count)
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 1, parts[0].hasPrefix("accounts:") { return Route(operation: String(parts[0]), projectScoped: false) }
        if parts.count == 3, parts[0] == "projects", !parts[1].isEmpty,
            parts[2] == "accounts" || parts[2].hasPrefix("accounts:")
        {
            return Route(operation: String(parts[2]), projectScoped: true)
        }
        return nil
    }

    func callKey(for request: EmulatorRequest) -> String? {
        Self.route(request.path)?.operation
    }

    func errorReply(status: Int, message: String) -> EmulatorReply {
        let reason = status == 503 ? "backendError" : "invalid"
        let error = IdentityToolkitError(
            httpStatus: status, message: message, reason: reason, status: status == 400 ? nil : message)
        return .json(error.json, status: status)
    }

    func payloadTooLargeReply() -> EmulatorReply {
        .json(IdentityToolkitError.payloadTooLarge.json, status: 413)
    }

    func faultSettingsChanged(_ settings: FaultSettings) async {
        await state.setTokenLifetime(settings.tokenTtlSeconds)
    }

    func respond(to request: EmulatorRequest) async -> EmulatorReply {
        do {
            return try await dispatch(request)
        } catch let error as IdentityToolkitError {
            return .json(error.json, status: error.httpStatus)
        } catch {
            let failure = IdentityToolkitError(httpStatus: 500, message: "INTERNAL", reason: "backendError", status: "INTERNAL")
            return .json(failure.json, status: 500)
        }
    }

    private func dispatch(_ request: EmulatorRequest) async throws -> EmulatorReply {
        let path = request.path
        if path == "/" && request.method == "GET" {
            return .json([
                "authEmulator": [
                    "ready": true, "docs": "https://firebase.google.com/docs/emulator-suite",
                    "apiSpec": "/emulator/openapi.json",
                ]
            ])
        }
        if path.hasPrefix("/emulator/") { return try await emulatorEndpoint(request) }
        guard let route = Self.route(path) else { throw IdentityToolkitError.notFound }
        let isGet = route.operation == "accounts:batchGet"
        guard request.method == (isGet ? "GET" : "POST") else { throw IdentityToolkitError.notFound }

        let privileged = try Self.isPrivileged(request, allowBearer: route.operation != "token")
        if !privileged {
            let key = request.query["key"] ?? request.header("x-goog-api-key") ?? ""
            if key.isEmpty { throw IdentityToolkitError.missingAPIKey }
            if route.projectScoped { throw IdentityToolkitError.insufficientPermission }
        }
        var body: AuthRequestBody
        if route.operation == "token" {
            body = try Self.parseTokenBody(request)
        } else {
            body = try AuthRequestBody.parse(request.body)
        }
        if isGet { body.merge(defaults: request.query.mapValues(JSON.string)) }
        if body.has("targetProjectId") && !privileged { throw IdentityToolkitError.insufficientPermission }
        if body.has("tenantId") {
            throw IdentityToolkitError.notImplemented("NOT_IMPLEMENTED : sesame-emulator does not support multi-tenancy (tenantId).")
        }

        let result: JSON
        switch route.operation {
        case "accounts", "accounts:signUp": result = try await state.signUp(body, privileged: privileged)
        case "accounts:signInWithPassword": result = try await state.signInWithPassword(body)
        case "accounts:sendOobCode":
            result = try await state.sendOobCode(body, privileged: privileged, baseURL: baseURL(request))
        case "accounts:signInWithEmailLink": result = try await state.signInWithEmailLink(body)
        case "accounts:signInWithIdp": result = try await state.signInWithIdp(body)
        case "accounts:signInWithCustomToken": result = try await state.signInWithCustomToken(body)
        case "accounts:update": result = try await state.update(body, privileged: privileged)
        case "accounts:lookup": result = try await state.lookup(body, privileged: privileged)
        case "accounts:delete": result = try await state.delete(body, privileged: privileged)
        case "accounts:createAuthUri": result = try await state.createAuthUri(body)
        case "accounts:resetPassword": result = try await state.resetPassword(body)
        case "token": result = try await state.grantToken(body)
        case "accounts:batchDelete", "accounts:batchGet", "accounts:query":
            guard privileged else { throw IdentityToolkitError.insufficientPermission }
            switch route.operation {
            case "accounts:batchDelete": result = try await state.batchDelete(body)
            case "accounts:batchGet": result = try await state.batchGet(body)
            default: result = try await state.query(body)
            }
        case _ where Self.knownUnsupported.contains(route.operation):
            throw IdentityToolkitError.notImplemented("NOT_IMPLEMENTED : \(route.operation) is not supported by sesame-emulator.")
        default:
            throw IdentityToolkitError.notFound
        }
        return .json(result)
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

    /// The Secure Token body: form-urlencoded or JSON, snake_case or camelCase.
    static func parseTokenBody(_ request: EmulatorRequest) throws(IdentityToolkitError) -> AuthRequestBody {
        let contentType = request.header("content-type")?.lowercased() ?? ""
        let firstByte = request.body.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        if contentType.contains("json") || firstByte == UInt8(ascii: "{") {
            return try AuthRequestBody.parse(request.body)
        }
        let text = String(decoding: request.body, as: UTF8.self)
        var fields: [String: JSON] = [:]
        for (k, v) in FormURLEncoding.parse(text) where fields[k] == nil { fields[k] = .string(v) }
        var body = AuthRequestBody(fields: fields)
        body.merge(defaults: request.query.filter { $0.key != "key" }.mapValues(JSON.string))
        return body
    }

    func baseURL(_ request: EmulatorRequest) -> String {
        "http://" + (request.header("host") ?? fallbackHost)
    }
}
