import Foundation

/// Base64 helpers over Foundation's codec: the URL-safe alphabet without padding (JWT segments)
/// and a decoder that accepts both alphabets, with or without padding.
public enum Base64URL {
    /// Standard base64 with padding.
    public static func standard(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString()
    }

    /// Base64url without padding (RFC 7515 §2). Works on the ASCII bytes, not on `Character`s,
    /// which keeps it off the hot path's profile.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var ascii = Array(Data(bytes).base64EncodedData())
        while ascii.last == UInt8(ascii: "=") { ascii.removeLast() }
        for i in ascii.indices {
            switch ascii[i] {
            case UInt8(ascii: "+"): ascii[i] = UInt8(ascii: "-")
            case UInt8(ascii: "/"): ascii[i] = UInt8(ascii: "_")
            default: continue
            }
        }
        return String(decoding: ascii, as: UTF8.self)
    }

    /// Decodes standard or URL-safe base64, padded or not; `nil` for anything else.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var ascii = Array(text.utf8)
        for i in ascii.indices {
            switch ascii[i] {
            case UInt8(ascii: "-"): ascii[i] = UInt8(ascii: "+")
            case UInt8(ascii: "_"): ascii[i] = UInt8(ascii: "/")
            default: continue
            }
        }
        // Padding only at the end, at most two characters (Foundation alone accepts "ab=c").
        if let pad = ascii.firstIndex(of: UInt8(ascii: "=")),
            ascii.count - pad > 2 || ascii[pad...].contains(where: { $0 != UInt8(ascii: "=") })
        {
            return nil
        }
        switch ascii.count % 4 {
        case 1: return nil
        case 2: ascii += [UInt8(ascii: "="), UInt8(ascii: "=")]
        case 3: ascii.append(UInt8(ascii: "="))
        default: break
        }
        return Data(base64Encoded: Data(ascii)).map(Array.init)
    }
}
