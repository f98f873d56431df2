import Crypto
import SesameCore
import SesameLocalAPI
import _CryptoExtras

/// The keys of `--supabase-jwt-keys`, as GoTrue takes `GOTRUE_JWT_KEYS` (internal/conf/jwk.go): a JSON array of
/// private JWKs — EC P-256, RSA or `oct` (HMAC) — each with its `kid`; exactly one has `"sign"` in its `key_ops`
/// and signs every access token, all of them verify, and the JWK set publishes the public half of each asymmetric
/// one (`use: sig`, `key_ops: ["verify"]`); symmetric keys are never published.
public struct SupabaseJWKSet: Sendable, Equatable {
    /// One key of the set.
    enum Key: Sendable, Equatable {
        case asymmetric(SupabaseSigningKey)
        case symmetric(keyId: String, secret: [UInt8])

        var keyId: String {
            switch self {
            case .asymmetric(let key): key.keyId
            case .symmetric(let keyId, _): keyId
            }
        }

        var algorithm: String {
            switch self {
            case .asymmetric(let key): key.algorithm.jose
            case .symmetric: "HS256"
            }
        }
    }

    let signing: Key
    let keys: [Key]

    /// Parses the JSON array GoTrue's `GOTRUE_JWT_KEYS` holds.
    /// - Throws: ``SesameEmulatorError`` naming what is wrong (GoTrue's words where it has them).
    public init(json text: String) throws {
        guard case .array(let items)? = try? JSONCoding.parse(Array(text.utf8)) else {
            throw SesameEmulatorError("--supabase-jwt-keys: not a JSON array of JWKs (as GOTRUE_JWT_KEYS)")
        }
        var keys: [Key] = []
        var signing: [Key] = []
        for (index, item) in items.enumerated() {
            let key = try Self.key(item, index: index)
            guard !keys.contains(where: { $0.keyId == key.keyId }) else {
                throw SesameEmulatorError("--supabase-jwt-keys: two keys have the kid \(key.keyId)")
            }
            keys.append(key)
            let operations = item["key_ops"]?.arrayValue?.compactMap(\.stringValue) ?? []
            if operations.contains("sign") { signing.append(key) }
        }
        guard let first = signing.first else {
            throw SesameEmulatorError("--supabase-jwt-keys: no signing key detected")
        }
        guard signing.count == 1 else {
            throw SesameEmulatorError(
                "--supabase-jwt-keys: multiple signing keys detected, only 1 signing key is supported")
        }
        self.signing = first
        self.keys = keys
    }

    private static func key(_ jwk: JSONValue, index: Int) throws -> Key {
        func field(_ name: String) throws -> [UInt8] {
            guard let text = jwk[name]?.stringValue, let bytes = Base64URL.decode(text) else {
                throw SesameEmulatorError("--supabase-jwt-keys: key \(index) has no \(name) (base64url)")
            }
            return Array(bytes)
        }
        guard let keyId = jwk["kid"]?.stringValue, !keyId.isEmpty else {
            throw SesameEmulatorError("--supabase-jwt-keys: key \(index) has no kid")
        }
        do {
            switch jwk["kty"]?.stringValue {
            case "EC":
                guard jwk["crv"]?.stringValue == "P-256" else {
                    throw SesameEmulatorError(
                        "--supabase-jwt-keys: key \(keyId): only the P-256 curve (ES256) is served")
                }
                let key = try P256.Signing.PrivateKey(rawRepresentation: try field("d"))
                let pem = key.pemRepresentation
                return .asymmetric(SupabaseSigningKey(algorithm: .es256, keyId: keyId, privateKeyPEM: pem))
            case "RSA":
                let key = try _RSA.Signing.PrivateKey(
                    n: try field("n"), e: try field("e"), d: try field("d"), p: try field("p"), q: try field("q"))
                return .asymmetric(
                    SupabaseSigningKey(algorithm: .rs256, keyId: keyId, privateKeyPEM: key.pemRepresentation))
            case "oct":
                return .symmetric(keyId: keyId, secret: try field("k"))
            default:
                throw SesameEmulatorError("--supabase-jwt-keys: key \(keyId): kty must be EC, RSA or oct")
            }
        } catch let error as SesameEmulatorError {
            throw error
        } catch {
            throw SesameEmulatorError("--supabase-jwt-keys: key \(keyId) is not a valid private key")
        }
    }
}
