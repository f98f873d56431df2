import Foundation

/// Base64 helpers for JWT segments (URL-safe, unpadded) and refresh tokens (standard, padded).
enum Base64 {
    /// Standard base64 with padding.
    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
    }

    /// base64url without padding (RFC 7515 §2).
    static func encodeURL(_ bytes: [UInt8]) -> String {
        var s = Data(bytes).base64EncodedString()
        s = s.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while s.hasSuffix("=") { s.removeLast() }
        return s
    }

    /// Decodes standard or URL-safe base64, padded or not; `nil` when it is not base64.
    static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var s = String(text).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        s = s.trimmingCharacters(in: .whitespaces)
        while s.count % 4 != 0 { s += "=" }
        guard let data = Data(base64Encoded: s) else { return nil }
        return Array(data)
    }
}
