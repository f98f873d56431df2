import Crypto

/// The 256-bit AES key that seals a keyring.
///
/// Its text form is 32 raw bytes, or 64 hexadecimal characters (either case) optionally
/// followed by one newline, which is what `systemd-creds` and `openssl rand -hex 32` produce.
/// `description` never shows the key.
struct KeyringKey: Sendable, CustomStringConvertible {
    /// The raw key bytes (swift-crypto's `SymmetricKey` is not `Sendable`, so it is made on use).
    private let bytes: [UInt8]

    /// The key for AES-GCM.
    var symmetricKey: SymmetricKey { SymmetricKey(data: bytes) }

    /// Length in bytes of a raw key.
    static let byteCount = 32

    /// Reads a key from the bytes of a key file or credential.
    /// - Returns: nil when `bytes` is neither form.
    init?(fileBytes bytes: [UInt8]) {
        if bytes.count == Self.byteCount {
            self.bytes = bytes
            return
        }
        var hex = bytes[...]
        if hex.last == UInt8(ascii: "\n") { hex = hex.dropLast() }
        guard hex.count == 2 * Self.byteCount else { return nil }
        var raw: [UInt8] = []
        raw.reserveCapacity(Self.byteCount)
        var index = hex.startIndex
        while index < hex.endIndex {
            guard let high = Self.nibble(hex[index]), let low = Self.nibble(hex[index + 1]) else { return nil }
            raw.append(high << 4 | low)
            index += 2
        }
        self.bytes = raw
    }

    /// A fresh random key.
    static func random() -> (key: KeyringKey, fileBytes: [UInt8]) {
        var bytes = [UInt8](repeating: 0, count: byteCount)
        var generator = SystemRandomNumberGenerator()
        for index in bytes.indices { bytes[index] = generator.next() }
        return (KeyringKey(fileBytes: bytes)!, bytes)
    }

    var description: String { "KeyringKey(redacted)" }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
