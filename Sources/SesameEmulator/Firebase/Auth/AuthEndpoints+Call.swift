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
            let json = try jsonBody()
            let body = try IdentityToolkitRequestDecoding.decode(type, from: json)
            let tenancy = try IdentityToolkitRequestDecoding.decode(TenancyFields.self, from: json)
            if tenancy.targetProjectId != nil && !privileged { throw .insufficientPermission }
            if tenancy.tenantId != nil {
                throw .notImplemented("NOT_IMPLEMENTED : sesame-emulator does not support multi-tenancy (tenantId).")
            }
            return body
        }

        /// The body as JSON: `accounts:batchGet` adds the query's fields; the Secure Token body
        /// may be form-urlencoded, with the query's fields (but `key`) added.
        private func jsonBody() throws(IdentityToolkitError) -> [UInt8] {
            var fields: [String: JSONValue] = [:]
            switch operation {
            case "token":
                let firstByte = body.first { !JSONCoding.isWhitespace($0) }
                if contentType.contains("json") || firstByte == UInt8(ascii: "{") { return body }
                for (k, v) in PercentEncoding.formFields(String(decoding: body, as: UTF8.self)) where fields[k] == nil {
                    fields[k] = .string(v)
                }
                for (k, v) in query where k != "key" && fields[k] == nil { fields[k] = .string(v) }
            case "accounts:batchGet":
                if !body.isEmpty {
                    fields = try IdentityToolkitRequestDecoding.decode([String: JSONValue].self, from: body)
                }
                for (name, value) in query where fields[name] == nil { fields[name] = .string(value) }
            default: return body
            }
            return JSONValue.object(fields).serialized()
        }
    }
}
