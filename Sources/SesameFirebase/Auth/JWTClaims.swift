import Foundation

/// Reads claims from a JWT's payload without verifying it (the daemon trusts the backend that
/// just issued the token; verification is the business of whoever receives it).
enum JWTClaims {
    /// `firebase.sign_in_provider` of `jwt`, or `"unknown"` when the token cannot be decoded.
    static func signInProvider(of jwt: String) -> String {
        guard let payload = payload(of: jwt),
            let firebase = payload["firebase"] as? [String: Any],
            let provider = firebase["sign_in_provider"] as? String, !provider.isEmpty
        else { return "unknown" }
        return provider
    }

    /// The payload object of `jwt` (its second, base64url-encoded segment).
    static func payload(of jwt: String) -> [String: Any]? {
        let segments = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count >= 2, let data = base64URLDecode(segments[1]) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// Decodes base64url with or without padding.
    static func base64URLDecode(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        let remainder = base64.count % 4
        if remainder == 1 { return nil }
        if remainder > 0 { base64 += String(repeating: "=", count: 4 - remainder) }
        return Data(base64Encoded: base64)
    }
}
