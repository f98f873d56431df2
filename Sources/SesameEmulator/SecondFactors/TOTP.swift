import Crypto
import Foundation

/// Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP): HMAC-SHA1, 6 digits, 30-second
/// steps, as authenticator apps compute them and as Identity Platform and GoTrue check them.
/// Both emulated backends check codes with it, and tests compute codes from a secret with it.
public struct TOTP: Sendable, Hashable {
    public static let digits = 6
    public static let period: TimeInterval = 30

    /// The shared secret's bytes.
    public let key: [UInt8]

    public init(key: [UInt8]) { self.key = key }

    /// A secret given in base32 (RFC 4648; case, spaces and padding ignored); nil when it is not base32.
    public init?(base32 secret: String) {
        guard let key = Base32.decode(secret), !key.isEmpty else { return nil }
        self.init(key: key)
    }

    /// A new random secret of 20 bytes (160 bits, RFC 4226's recommendation).
    public static func random() -> TOTP { TOTP(key: (0..<20).map { _ in UInt8.random(in: .min ... .max) }) }

    /// The secret in base32 without padding, as `otpauth://` URIs carry it.
    public var base32: String { Base32.encode(key) }

    /// The code for the time step that contains `date`.
    public func code(at date: Date) -> String { code(step: Self.step(of: date)) }

    /// Whether `code` is the code of `date`'s step or of a step next to it (±1: a clock off by
    /// up to 30 seconds, as both services allow).
    public func verify(_ code: String, at date: Date, window: Int64 = 1) -> Bool {
        guard code.utf8.count == Self.digits, code.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return false }
        let step = Self.step(of: date)
        return (-window...window).contains { self.code(step: step + $0) == code }
    }

    /// The RFC 6238 step number of `date`.
    public static func step(of date: Date) -> Int64 { Int64((date.timeIntervalSince1970 / period).rounded(.down)) }

    /// RFC 4226 §5.3: HMAC-SHA1 of the big-endian counter, dynamic truncation, modulo 10^6.
    func code(step: Int64) -> String {
        let counter = withUnsafeBytes(of: UInt64(bitPattern: step).bigEndian) { Array($0) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: counter, using: SymmetricKey(data: key)))
        let offset = Int(mac[mac.count - 1] & 0x0f)
        let value =
            (UInt32(mac[offset] & 0x7f) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8)
            | UInt32(mac[offset + 3])
        let text = String(value % 1_000_000)
        return String(repeating: "0", count: Self.digits - text.count) + text
    }
}

/// RFC 4648 base32 (the alphabet `A–Z2–7`), as TOTP secrets are written.
enum Base32 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                output.append(alphabet[Int((buffer >> UInt32(bits - 5)) & 31)])
                bits -= 5
            }
        }
        if bits > 0 { output.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
        return String(decoding: output, as: UTF8.self)
    }

    static func decode(_ text: String) -> [UInt8]? {
        var output: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for unit in text.utf8 where unit != 61 && unit != 32 {  // "=" and " "
            let upper = unit >= 97 && unit <= 122 ? unit - 32 : unit
            guard let index = alphabet.firstIndex(of: upper) else { return nil }
            buffer = (buffer << 5) | UInt32(index)
            bits += 5
            if bits >= 8 {
                output.append(UInt8((buffer >> UInt32(bits - 8)) & 0xff))
                bits -= 8
            }
        }
        return output
    }
}
