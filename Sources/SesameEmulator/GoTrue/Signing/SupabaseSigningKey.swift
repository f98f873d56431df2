import Crypto
import Foundation
import SesameCore
import SesameLocalAPI
import _CryptoExtras

/// The asymmetric key GoTrue signs access tokens with: made when the emulator starts, kept in the data directory
/// (`supabase_export/signing_key.json`) so tokens and the published key outlive a restart. The private key is
/// held as PEM (swift-crypto's key types are not `Sendable`).
struct SupabaseSigningKey: Sendable, Codable, Equatable {
    let algorithm: SupabaseSigningAlgorithm
    /// The `kid` in every token's header and in the JWK set (a UUID, as hosted Supabase's).
    let keyId: String
    let privateKeyPEM: String

    private enum CodingKeys: String, CodingKey {
        case algorithm = "alg"
        case keyId = "kid"
        case privateKeyPEM = "private_key_pem"
    }

    /// A new key for `algorithm`; `nil` for `hs256`, which signs with the secret.
    static func generate(_ algorithm: SupabaseSigningAlgorithm) -> SupabaseSigningKey? {
        let pem: String
        switch algorithm {
        case .es256: pem = P256.Signing.PrivateKey().pemRepresentation
        case .rs256:
            guard let key = try? _RSA.Signing.PrivateKey(keySize: .bits2048) else { return nil }
            pem = key.pemRepresentation
        case .hs256: return nil
        }
        return SupabaseSigningKey(algorithm: algorithm, keyId: UUID().uuidString.lowercased(), privateKeyPEM: pem)
    }

    /// Where a data or export directory keeps the key, beside `supabase_export/state.json`.
    static let path = "supabase_export/signing_key.json"

    /// The key to sign with at start: the one saved in `directory` when it is for `algorithm`, else a new one
    /// (`nil` for `hs256`); a key of another algorithm is replaced, as a hosted project rotating its key type.
    /// - Throws: ``SesameEmulatorError`` when the saved key cannot be read.
    static func load(_ algorithm: SupabaseSigningAlgorithm, from directory: String?) throws -> SupabaseSigningKey? {
        guard algorithm != .hs256 else { return nil }
        if let directory {
            let url = URL(fileURLWithPath: directory).appendingPathComponent(path)
            if FileManager.default.fileExists(atPath: url.path) {
                let saved: SupabaseSigningKey
                do {
                    saved = try JSONDecoder().decode(SupabaseSigningKey.self, from: Data(contentsOf: url))
                } catch {
                    throw SesameEmulatorError("cannot read \(url.path): not a saved signing key")
                }
                if saved.algorithm == algorithm, saved.publicJWK != nil { return saved }
            }
        }
        return generate(algorithm)
    }

    private enum Parsed {
        case p256(P256.Signing.PrivateKey)
        case rsa(_RSA.Signing.PrivateKey)
    }

    /// The private key, parsed from its PEM; nil for `hs256` or a PEM that does not parse.
    private var parsed: Parsed? {
        switch algorithm {
        case .es256: (try? P256.Signing.PrivateKey(pemRepresentation: privateKeyPEM)).map(Parsed.p256)
        case .rs256: (try? _RSA.Signing.PrivateKey(pemRepresentation: privateKeyPEM)).map(Parsed.rsa)
        case .hs256: nil
        }
    }

    /// The signature of `input` (JOSE form: `r || s` for ES256, PKCS #1 v1.5 for RS256).
    func signature(for input: [UInt8]) -> [UInt8] {
        switch parsed {
        case .p256(let key): (try? key.signature(for: input)).map { Array($0.rawRepresentation) } ?? []
        case .rsa(let key):
            (try? key.signature(for: input, padding: .insecurePKCS1v1_5)).map { Array($0.rawRepresentation) } ?? []
        case nil: []
        }
    }

    func isValidSignature(_ signature: [UInt8], for input: [UInt8]) -> Bool {
        switch parsed {
        case .p256(let key):
            guard let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.publicKey.isValidSignature(parsed, for: input)
        case .rsa(let key):
            return key.publicKey.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: input, padding: .insecurePKCS1v1_5)
        case nil: return false
        }
    }

    /// The public JWK as GoTrue publishes it: `kty`, `kid`, `alg`, `use: sig`,
    /// `key_ops: ["verify"]`, and `crv`/`x`/`y` (EC) or `n`/`e` (RSA).
    var publicJWK: JSONValue? {
        var jwk: [String: JSONValue] = [
            "kid": .string(keyId), "alg": .string(algorithm.jose), "use": "sig", "key_ops": ["verify"],
        ]
        switch parsed {
        case .p256(let key):
            let point = Array(key.publicKey.x963Representation)  // 0x04 || x || y
            jwk["kty"] = "EC"
            jwk["crv"] = "P-256"
            jwk["x"] = .string(Base64URL.encode(point[1..<33]))
            jwk["y"] = .string(Base64URL.encode(point[33..<65]))
        case .rsa(let key):
            guard let primitives = try? key.publicKey.getKeyPrimitives() else { return nil }
            jwk["kty"] = "RSA"
            jwk["n"] = .string(Base64URL.encode(Array(primitives.modulus)))
            jwk["e"] = .string(Base64URL.encode(Array(primitives.publicExponent)))
        case nil: return nil
        }
        return .object(jwk)
    }
}
