import Crypto

/// The digests and random codes GoTrue uses.
enum SupabaseHash {
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    static func sha256Hex(_ text: String) -> String { hex(SHA256.hash(data: Array(text.utf8))) }

    /// GoTrue's `token_hash`: hex SHA-224 of the address followed by the code.
    static func tokenHash(email: String, otp: String) -> String {
        hex(SHA224.hash(Array((email + otp).utf8)))
    }

    /// A six-digit one-time code.
    static func otp() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = String(generator.next(upperBound: UInt(1_000_000)))
        return String(repeating: "0", count: 6 - digits.count) + digits
    }
}
