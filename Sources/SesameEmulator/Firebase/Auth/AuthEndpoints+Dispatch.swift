extension AuthEndpoints {
    /// One routed, authorised Identity Toolkit call.
    struct Call: Sendable {
        let request: EmulatorRequest
        let route: Route
        let privileged: Bool

        /// The typed body of the call, after the checks every operation shares: `tenantId` is
        /// not supported (501), `targetProjectId` needs privilege.
        func body<Body: IdentityToolkitRequest>(_ type: Body.Type) throws(IdentityToolkitError) -> Body {
            let body: Body
            switch route.operation {
            case "token": body = try AuthEndpoints.tokenBody(type, request)
            case "accounts:batchGet":
                var fields: [String: JSON] = [:]
                if !request.body.isEmpty {
                    fields = try IdentityToolkitRequestDecoding.decode([String: JSON].self, from: request.body)
                }
                for (name, value) in request.query where fields[name] == nil { fields[name] = .string(value) }
                body = try IdentityToolkitRequestDecoding.decode(type, fields: fields)
            default: body = try IdentityToolkitRequestDecoding.decode(type, from: request.body)
            }
            if body.targetProjectId != nil && !privileged { throw .insufficientPermission }
            if body.tenantId != nil {
                throw .notImplemented("NOT_IMPLEMENTED : sesame-emulator does not support multi-tenancy (tenantId).")
            }
            return body
        }
    }

    /// Runs the operation the call is routed to.
    func perform(_ call: Call) async throws(IdentityToolkitError) -> EmulatorReply {
        let privileged = call.privileged
        switch call.route.operation {
        case "accounts", "accounts:signUp":
            return .encoded(try await state.signUp(call.body(SignUpRequest.self), privileged: privileged))
        case "accounts:signInWithPassword":
            return .encoded(try await state.signInWithPassword(call.body(SignInWithPasswordRequest.self)))
        case "accounts:sendOobCode":
            return .encoded(
                try await state.sendOobCode(
                    call.body(SendOobCodeRequest.self), privileged: privileged, baseURL: baseURL(call.request)))
        case "accounts:signInWithEmailLink":
            return .encoded(try await state.signInWithEmailLink(call.body(SignInWithEmailLinkRequest.self)))
        case "accounts:signInWithIdp":
            return .encoded(try await state.signInWithIdp(call.body(SignInWithIdpRequest.self)))
        case "accounts:signInWithCustomToken":
            return .encoded(try await state.signInWithCustomToken(call.body(SignInWithCustomTokenRequest.self)))
        case "accounts:update":
            return .encoded(try await state.update(call.body(UpdateRequest.self), privileged: privileged))
        case "accounts:lookup":
            return .encoded(try await state.lookup(call.body(LookupRequest.self), privileged: privileged))
        case "accounts:delete":
            return .encoded(try await state.delete(call.body(DeleteRequest.self), privileged: privileged))
        case "accounts:createAuthUri":
            return .encoded(try await state.createAuthUri(call.body(CreateAuthUriRequest.self)))
        case "accounts:resetPassword":
            return .encoded(try await state.resetPassword(call.body(ResetPasswordRequest.self)))
        case "token": return .encoded(try await state.grantToken(call.body(TokenRequest.self)))
        case "accounts:batchDelete":
            guard privileged else { throw .insufficientPermission }
            return .encoded(try await state.batchDelete(call.body(BatchDeleteRequest.self)))
        case "accounts:batchGet":
            guard privileged else { throw .insufficientPermission }
            return .encoded(try await state.batchGet(call.body(BatchGetRequest.self)))
        case "accounts:query":
            guard privileged else { throw .insufficientPermission }
            return .encoded(try await state.query(call.body(QueryRequest.self)))
        case let operation where Self.knownUnsupported.contains(operation):
            throw .notImplemented("NOT_IMPLEMENTED : \(operation) is not supported by sesame-emulator.")
        default:
            throw .notFound
        }
    }

    /// The Secure Token body: JSON, or form-urlencoded with the query's fields (but `key`) added.
    static func tokenBody<Body: Decodable>(
        _ type: Body.Type, _ request: EmulatorRequest
    ) throws(IdentityToolkitError) -> Body {
        let contentType = request.header("content-type")?.lowercased() ?? ""
        let firstByte = request.body.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        if contentType.contains("json") || firstByte == UInt8(ascii: "{") {
            return try IdentityToolkitRequestDecoding.decode(type, from: request.body)
        }
        var fields: [String: JSON] = [:]
        for (k, v) in FormURLEncoding.parse(String(decoding: request.body, as: UTF8.self)) where fields[k] == nil {
            fields[k] = .string(v)
        }
        for (k, v) in request.query where k != "key" && fields[k] == nil { fields[k] = .string(v) }
        return try IdentityToolkitRequestDecoding.decode(type, fields: fields)
    }
}
