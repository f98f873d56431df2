import Crypto
import Foundation
import SesameCore
import SesameLocalAPI
import _CryptoExtras

@testable import SesameEmulator

/// What a relying party does with GoTrue's `/.well-known/jwks.json` (supabase-js and
/// supabase-py's `get_claims`): finds the key by the token's `kid` and checks its ES256 or RS256
/// signature with swift-crypto, independently of the emulator's own signing code.
enum JWKSVerifier {
    /// The token's header, or `nil` when it is not a JWT.
    static func header(_ token: String) -> JSONValue? {
        guard let part = token.split(separator: ".").first, let bytes = Base64URL.decode(part) else { return nil }
        return try? JSONCoding.parse(bytes)
    }

    /// The claims of `token` when its signature checks out against the key of `jwks` its `kid`
    /// names, else `nil`.
    static func claims(of token: String, jwks: JSONValue) -> JSONValue? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = header(token), let kid = header["kid"]?.stringValue,
            let jwk = jwks["keys"]?.arrayValue?.first(where: { $0["kid"]?.stringValue == kid }),
            jwk["alg"] == header["alg"], let signature = Base64URL.decode(parts[2]),
            let payload = Base64URL.decode(parts[1])
        else { return nil }
        let input = Array((parts[0] + "." + parts[1]).utf8)
        guard isValid(signature: Array(signature), input: input, jwk: jwk) else { return nil }
        return try? JSONCoding.parse(payload)
    }

    private static func bytes(_ jwk: JSONValue, _ name: String) -> [UInt8]? {
        jwk[name]?.stringValue.flatMap { Base64URL.decode($0) }.map { Array($0) }
    }

    private static func isValid(signature: [UInt8], input: [UInt8], jwk: JSONValue) -> Bool {
        switch (jwk["kty"]?.stringValue, jwk["alg"]?.stringValue) {
        case ("EC", "ES256"):
            guard jwk["crv"] == "P-256", let x = bytes(jwk, "x"), let y = bytes(jwk, "y"),
                let key = try? P256.Signing.PublicKey(x963Representation: [0x04] + x + y),
                let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature)
            else { return false }
            return key.isValidSignature(parsed, for: input)
        case ("RSA", "RS256"):
            guard let n = bytes(jwk, "n"), let e = bytes(jwk, "e"),
                let key = try? _RSA.Signing.PublicKey(n: n, e: e)
            else { return false }
            return key.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: input, padding: .insecurePKCS1v1_5)
        default: return false
        }
    }
}
