/// How GoTrue signs access tokens (`--supabase-signing-key`). New hosted Supabase projects sign
/// with an asymmetric key published at `/auth/v1/.well-known/jwks.json` (ES256 on P-256 is the
/// dashboard's default; RS256 is its other choice); `hs256` is the legacy JWT secret alone.
public enum SupabaseSigningAlgorithm: String, Sendable, Codable, CaseIterable {
    /// ECDSA on P-256 with SHA-256.
    case es256
    /// RSASSA-PKCS1-v1_5 with SHA-256 on a 2048-bit key.
    case rs256
    /// HMAC-SHA256 with the JWT secret (legacy); the JWK set is empty.
    case hs256

    /// The JOSE `alg` value.
    var jose: String { rawValue.uppercased() }
}
