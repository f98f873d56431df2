import Foundation

/// Base64 helpers over Foundation's codec: the URL-safe alphabet without padding (JWT segments)
/// and a decoder that accepts both alphabets, with or without padding.
enum Base64URL {
    /// Standard base64 with padding.
    static func standard(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString()
    }

    /// Base64url without padding (RFC 7515 §2).
    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var text = Data(bytes).base64EncodedString()
        while text.last == "=" { text.removeLast() }
        return String(text.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
    }

    /// Decodes standard or URL-safe base64, padded or not; `nil` for anything else.
    static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var standard = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        let remainder = standard.utf8.count % 4
        if remainder == 1 { return nil }
        if remainder > 0 { standard += String(repeating: "=", count: 4 - remainder) }
        return Data(base64Encoded: standard).map(Array.init)
    }
}
