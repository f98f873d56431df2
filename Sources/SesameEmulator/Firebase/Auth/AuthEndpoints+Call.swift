import SesameCore
import SesameLocalAPI

extension AuthEndpoints {
    /// One routed, authorised Identity Toolkit call.
    struct Call: Sendable {
        /// The body, as ``EmulatorMiddleware`` read it.
        let body: [UInt8]
        let query: [String: String]
        /// `Content-Type`, lower-cased (`""` without one).
        let contentType: String
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
            case "token": body = try tokenBody(type)
            case "accounts:batchGet":
                var fields: [String: JSONValue] = [:]
                if !self.body.isEmpty {
                    fields = try IdentityToolkitRequestDecoding.decode([String: JSONValue].self, from: self.body)
                }
                for (name, value) in query where fields[name] == nil { fields[name] = .string(value) }
                body = try IdentityToolkitRequestDecoding.decode(type, fields: fields)
            default: body = try IdentityToolkitRequestDecoding.decode(type, from: self.body)
            }
            if body.targetProjectId != nil && !privileged { throw .insufficientPermission }
            if body.tenantId != nil {
                throw .notImplemented("NOT_IMPLEMENTED : sesame-emulator does not support multi-tenancy (tenantId).")
            }
            return body
        }

        /// The Secure Token body: JSON, or form-urlencoded with the query's fields (but `key`) added.
        func tokenBody<Body: Decodable>(_ type: Body.Type) throws(IdentityToolkitError) -> Body {
            let firstByte = body.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
            if contentType.contains("json") || firstByte == UInt8(ascii: "{") {
                return try IdentityToolkitRequestDecoding.decode(type, from: body)
            }
            var fields: [String: JSONValue] = [:]
            for (k, v) in PercentEncoding.formFields(String(decoding: body, as: UTF8.self)) where fields[k] == nil {
                fields[k] = .string(v)
            }
            for (k, v) in query where k != "key" && fields[k] == nil { fields[k] = .string(v) }
            return try IdentityToolkitRequestDecoding.decode(type, fields: fields)
        }
    }
}
