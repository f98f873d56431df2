import Crypto
import SesameCore
import SesameLocalAPI

/// HS256 JWTs as Supabase signs them: the anon and service_role keys, GoTrue's access tokens.
struct SupabaseJWT: Sendable {
    private let secret: [UInt8]

    init(secret: String) { self.secret = Array(secret.utf8) }

    private var key: SymmetricKey { SymmetricKey(data: secret) }

    static let header = Base64URL.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))

    /// `claims` signed with the secret.
    func sign(_ claims: [String: JSONValue]) -> String {
        sign(payload: JSONValue.object(claims).serialized())
    }

    /// The JWT whose payload is exactly `payload` (JSON bytes).
    func sign(payload: [UInt8]) -> String {
        let input = "\(Self.header).\(Base64URL.encode(payload))"
        let mac = HMAC<SHA256>.authenticationCode(for: Array(input.utf8), using: key)
        return "\(input).\(Base64URL.encode(Array(mac)))"
    }

    /// The claims of `token` when it is an HS256 JWT signed with the secret and not expired at
    /// `now` (seconds since 1970).
    /// - Throws: ``SupabaseJWTError`` saying which check failed.
    func verify(_ token: String, now: Int) throws(SupabaseJWTError) -> [String: JSONValue] {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed(parts: parts.count) }
        guard let headerBytes = Base64URL.decode(parts[0]), let payloadBytes = Base64URL.decode(parts[1]),
            case .object(let header)? = try? JSONCoding.parse(headerBytes),
            case .object(let claims)? = try? JSONCoding.parse(payloadBytes),
            let signature = Base64URL.decode(parts[2])
        else { throw .malformed(parts: 3) }
        guard header["alg"]?.stringValue == "HS256" else { throw .badSignature }
        let input = Array("\(parts[0]).\(parts[1])".utf8)
        guard HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: input, using: key) else {
            throw .badSignature
        }
        if let exp = claims["exp"]?.intValue, exp <= now { throw .expired }
        return claims
    }

    /// The long-lived API key for `role` (`anon` or `service_role`): the claims of
    /// `supabase start`'s demo keys in their order, so with the development secret these are
    /// byte for byte Supabase's well-known local keys.
    func apiKey(role: String) -> String {
        var payload = #"{"iss":"supabase-demo","role":"#
        payload += JSONValue.string(role).jsonString
        payload += #","exp":1983812996}"#
        return sign(payload: Array(payload.utf8))
    }
}

/// Why a bearer token was refused.
enum SupabaseJWTError: Error, Sendable, Equatable {
    /// Not three dot-separated parts of base64url JSON.
    case malformed(parts: Int)
    /// Not HS256, or signed with another secret.
    case badSignature
    /// `exp` is in the past.
    case expired
}
