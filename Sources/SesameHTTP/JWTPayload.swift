import Foundation
import SesameCore

/// The claims of a JWT a backend issued, read without checking its signature: the adapters
/// only read their own backend's tokens (uid, provider, expiry) to describe the session; the
/// backend checks signatures.
public enum JWTPayload {
    /// The payload of `jwt` (its second, base64url-encoded segment) decoded as `Claims`, or nil.
    public static func claims<Claims: Decodable>(_ type: Claims.Type, of jwt: String) -> Claims? {
        let segments = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count >= 2, let bytes = Base64URL.decode(segments[1]) else { return nil }
        return try? JSONDecoder().decode(type, from: Data(bytes))
    }
}
