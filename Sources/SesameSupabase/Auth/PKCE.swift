import Crypto
import SesameCore

/// RFC 7636 (PKCE, `S256`) and the `state` of a browser sign-in: random secrets made here and
/// never logged.
enum PKCE {
    /// A code verifier: 32 random bytes as base64url, 43 characters (RFC 7636 §4.1 allows 43–128).
    static func makeVerifier() -> String {
        Base64URL.encode(randomBytes(32))
    }

    /// The `S256` challenge of `verifier`: base64url of its SHA-256.
    static func challenge(for verifier: String) -> String {
        Base64URL.encode(SHA256.hash(data: Array(verifier.utf8)))
    }

    /// A `state`: 24 random bytes as base64url.
    static func makeState() -> String {
        Base64URL.encode(randomBytes(24))
    }

    private static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
