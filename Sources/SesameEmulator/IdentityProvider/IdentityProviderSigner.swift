import Crypto
import Foundation
import SesameCore
import SesameLocalAPI

/// Signs the fake identity provider's ID tokens: ES256 (ECDSA P-256 with SHA-256) with a key
/// made when the emulator starts, published as a JWK set so a relying party can check them.
struct IdentityProviderSigner: Sendable {
    /// The private key's raw bytes (swift-crypto's key type is not `Sendable`).
    private let keyBytes: Data
    private var key: P256.Signing.PrivateKey {
        // Bytes made by the key itself always read back.
        (try? P256.Signing.PrivateKey(rawRepresentation: keyBytes)) ?? P256.Signing.PrivateKey()
    }
    /// The key id in every token's header and in the JWK set.
    let keyId: String

    init() {
        let key = P256.Signing.PrivateKey()
        keyBytes = key.rawRepresentation
        keyId = String(SupabaseHash.sha256Hex(Base64URL.encode(key.publicKey.x963Representation)).prefix(16))
    }

    /// A compact JWS of `claims`, with header `{"alg":"ES256","typ":"JWT","kid":…}`.
    func sign(_ claims: [String: JSONValue]) -> String {
        let header: JSONValue = ["alg": "ES256", "typ": "JWT", "kid": .string(keyId)]
        let input =
            Base64URL.encode(header.serialized()) + "." + Base64URL.encode(JSONValue.object(claims).serialized())
        let signature = (try? key.signature(for: Array(input.utf8)))?.rawRepresentation ?? Data()
        return input + "." + Base64URL.encode(signature)
    }

    /// `{"keys":[{"kty":"EC","crv":"P-256","x","y","kid","alg":"ES256","use":"sig"}]}`.
    var jwks: JSONValue {
        let point = Array(key.publicKey.x963Representation)  // 0x04 || x || y
        return [
            "keys": [
                [
                    "kty": "EC", "crv": "P-256", "alg": "ES256", "use": "sig", "kid": .string(keyId),
                    "x": .string(Base64URL.encode(point[1..<33])), "y": .string(Base64URL.encode(point[33..<65])),
                ]
            ]
        ]
    }

    /// The claims of `token` when its ES256 signature checks out against a key of `jwks` (what
    /// a relying party does with the published keys), else `nil`.
    static func verify(_ token: String, with jwks: JSONValue) -> [String: JSONValue]? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let (header, payload) = TokenFactory.decodeJWT(token),
            header["alg"]?.stringValue == "ES256",
            let jwk = jwks["keys"]?.arrayValue?.first(where: { $0["kid"] == header["kid"] }),
            let x = jwk["x"]?.stringValue.flatMap({ Base64URL.decode($0) }),
            let y = jwk["y"]?.stringValue.flatMap({ Base64URL.decode($0) }),
            let key = try? P256.Signing.PublicKey(x963Representation: [0x04] + x + y),
            let raw = Base64URL.decode(parts[2]),
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: raw),
            key.isValidSignature(signature, for: Array((parts[0] + "." + parts[1]).utf8))
        else { return nil }
        return payload
    }
}
