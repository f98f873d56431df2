import Foundation

/// The claims of a JWT a backend issued, read without checking its signature: the adapters
/// only read their own backend's tokens (uid, provider, expiry) to describe the session; the
/// backend checks signatures.
public enum JWTPayload {
    /// The payload of `jwt` (its second, base64url-encoded segment) decoded as `Claims`, or nil.
    public static func claims<Claims: Decodable>(_ type: Claims.Type, of jwt: String) -> Claims? {
        let segments = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count >= 2, let data = base64URLDecode(segments[1]) else { return nil }
        return try? JSONDecoder().decode(type, from: data)
    }

    /// Decodes base64url with or without padding.
    public static func base64URLDecode(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        let remainder = base64.count % 4
        if remainder == 1 { return nil }
        if remainder > 0 { base64 += String(repeating: "=", count: 4 - remainder) }
        return Data(base64Encoded: base64)
    }
}
