import SesameCore
import SesameLocalAPI

extension AuthEndpoints {
    /// One routed, authorised Identity Toolkit call.
    struct Call: Sendable {
        let request: EmulatorRequest
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
            let body: Body
            switch operation {
            case "token": body = try AuthEndpoints.tokenBody(type, request)
            case "accounts:batchGet":
                var fields: [String: JSONValue] = [:]
                if !request.body.isEmpty {
                    fields = try IdentityToolkitRequestDecoding.decode([String: JSONValue].self, from: request.body)
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

    /// The Secure Token body: JSON, or form-urlencoded with the query's fields (but `key`) added.
    static func tokenBody<Body: Decodable>(
        _ type: Body.Type, _ request: EmulatorRequest
    ) throws(IdentityToolkitError) -> Body {
        let contentType = request.header("content-type")?.lowercased() ?? ""
        let firstByte = request.body.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        if contentType.contains("json") || firstByte == UInt8(ascii: "{") {
            return try IdentityToolkitRequestDecoding.decode(type, from: request.body)
        }
        var fields: [String: JSONValue] = [:]
        for (k, v) in PercentEncoding.formFields(String(decoding: request.body, as: UTF8.self)) where fields[k] == nil {
            fields[k] = .string(v)
        }
        for (k, v) in request.query where k != "key" && fields[k] == nil { fields[k] = .string(v) }
        return try IdentityToolkitRequestDecoding.decode(type, fields: fields)
    }
}

extension AuthEndpoints: LegacyEmulatorEndpoints {}
