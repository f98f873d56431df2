import Crypto
import SesameCore
import SesameLocalAPI

/// JWTs as Supabase signs them. Access tokens are signed with the project's signing key (``SupabaseSigningKey``,
/// `kid` in the header) or, for a legacy `hs256` project, with the JWT secret; the anon and service_role keys stay
/// HS256 with the secret (Supabase's "legacy API keys", which hosted projects accept next to signing keys).
struct SupabaseJWT: Sendable {
    /// The JWT secret, as a key of its own (HS256).
    private let secret: SupabaseJWKSet.Key
    /// The asymmetric key made for (or saved by) the emulator; `nil` when access tokens are HS256
    /// with the secret, or when `--supabase-jwt-keys` gives the keys.
    let signingKey: SupabaseSigningKey?
    /// The key that signs access tokens, its `kid` in the header: `--supabase-jwt-keys`' signing
    /// key, else ``signingKey``; `nil` for HS256 with the secret.
    private let signing: SupabaseJWKSet.Key?
    /// The keys a token's `kid` selects to verify it (before the secret's fallback).
    private let keys: [SupabaseJWKSet.Key]

    init(secret: String, signingKey: SupabaseSigningKey? = nil, keySet: SupabaseJWKSet? = nil) {
        self.secret = .symmetric(keyId: "", secret: Array(secret.utf8))
        self.signingKey = keySet == nil ? signingKey : nil
        self.signing = keySet?.signing ?? self.signingKey.map(SupabaseJWKSet.Key.asymmetric)
        self.keys = keySet?.keys ?? signing.map { [$0] } ?? []
    }

    static let header = Base64URL.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))

    /// An access token: `claims` signed with the signing key, or with the secret without one.
    func sign(_ claims: [String: JSONValue]) -> String {
        let payload = JSONValue.object(claims).serialized()
        guard let signing else { return signHS256(payload: payload) }
        return sign(payload: payload, with: signing)
    }

    /// The HS256 JWT whose payload is exactly `payload` (JSON bytes), signed with the secret.
    func signHS256(payload: [UInt8]) -> String {
        let input = "\(Self.header).\(Base64URL.encode(payload))"
        return "\(input).\(Base64URL.encode(Self.signature(of: Array(input.utf8), by: secret)))"
    }

    /// The claims of `token` when it is signed by the signing key (its `alg` and `kid`) or is HS256 with the
    /// secret (legacy API keys, as GoTrue's fallback), and not expired at `now` (seconds since 1970).
    /// - Throws: ``SupabaseJWTError`` saying which check failed.
    func verify(_ token: String, now: Int) throws(SupabaseJWTError) -> [String: JSONValue] {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed(parts: parts.count) }
        guard let (header, claims) = TokenFactory.decodeJWT(token), let signature = Base64URL.decode(parts[2]) else {
            throw .malformed(parts: 3)
        }
        let input = Array("\(parts[0]).\(parts[1])".utf8)
        let alg = header["alg"]?.stringValue
        if let kid = header["kid"]?.stringValue, let key = keys.first(where: { $0.keyId == kid }) {
            guard alg == key.algorithm, Self.isValid(signature, for: input, by: key) else { throw .badSignature }
        } else {
            guard alg == "HS256", Self.isValid(signature, for: input, by: secret) else { throw .badSignature }
        }
        if let exp = claims["exp"]?.intValue, exp <= now { throw .expired }
        return claims
    }

    /// `/.well-known/jwks.json`: the public JWK of every asymmetric key (GoTrue never publishes symmetric ones).
    var jwks: JSONValue {
        .object([
            "keys": .array(
                keys.compactMap {
                    guard case .asymmetric(let key) = $0 else { return nil }
                    return key.publicJWK
                })
        ])
    }

    /// `payload` signed with a key of the set, its `kid` in the header.
    private func sign(payload: [UInt8], with key: SupabaseJWKSet.Key) -> String {
        let header: JSONValue = ["alg": .string(key.algorithm), "kid": .string(key.keyId), "typ": "JWT"]
        let input = "\(Base64URL.encode(header.serialized())).\(Base64URL.encode(payload))"
        return "\(input).\(Base64URL.encode(Self.signature(of: Array(input.utf8), by: key)))"
    }

    private static func signature(of input: [UInt8], by key: SupabaseJWKSet.Key) -> [UInt8] {
        switch key {
        case .asymmetric(let signingKey): signingKey.signature(for: input)
        case .symmetric(_, let secret):
            Array(HMAC<SHA256>.authenticationCode(for: input, using: SymmetricKey(data: secret)))
        }
    }

    private static func isValid(_ signature: [UInt8], for input: [UInt8], by key: SupabaseJWKSet.Key) -> Bool {
        switch key {
        case .asymmetric(let signingKey): signingKey.isValidSignature(signature, for: input)
        case .symmetric(_, let secret):
            HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: input, using: SymmetricKey(data: secret))
        }
    }

    /// The long-lived API key for `role` (`anon` or `service_role`): the claims of `supabase start`'s demo keys in
    /// their order, so with the development secret these are byte for byte Supabase's well-known local keys.
    func apiKey(role: String) -> String {
        var payload = #"{"iss":"supabase-demo","role":"#
        payload += JSONValue.string(role).jsonString
        payload += #","exp":1983812996}"#
        return signHS256(payload: Array(payload.utf8))
    }
}

/// Why a bearer token was refused.
enum SupabaseJWTError: Error, Sendable, Equatable {
    /// Not three dot-separated parts of base64url JSON.
    case malformed(parts: Int)
    /// Neither the signing key's algorithm and `kid` nor HS256, or a signature that does not check out.
    case badSignature
    /// `exp` is in the past.
    case expired
}
