import Foundation
import SesameLocalAPI

/// `application/x-www-form-urlencoded` (and URL query) parsing and escaping.
enum FormURLEncoding {
    /// Splits `a=1&b=2` into decoded pairs, in order; `+` is a space.
    static func parse(_ text: some StringProtocol) -> [(String, String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            if let eq = pair.firstIndex(of: "=") {
                return (decode(pair[..<eq]), decode(pair[pair.index(after: eq)...]))
            }
            return (decode(pair), "")
        }
    }

    /// Like ``parse(_:)`` into a dictionary; a repeated name keeps the first value.
    static func parseDictionary(_ text: some StringProtocol) -> [String: String] {
        var out: [String: String] = [:]
        for (k, v) in parse(text) where out[k] == nil { out[k] = v }
        return out
    }

    static func decode(_ text: some StringProtocol) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8)[...]
        while let b = iterator.popFirst() {
            if b == UInt8(ascii: "+") {
                bytes.append(0x20)
            } else if b == UInt8(ascii: "%"), iterator.count >= 2,
                let hi = hexValue(iterator[iterator.startIndex]), let lo = hexValue(iterator[iterator.startIndex + 1])
            {
                bytes.append(hi << 4 | lo)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(b)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// Percent-escapes everything but unreserved characters (RFC 3986).
    static func escape(_ text: String) -> String {
        var out = ""
        for b in text.utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                let hex = String(b, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return out
    }
}

extension FormURLEncoding {
    /// Percent-decodes a URL path (`+` stays `+`).
    static func decodePath(_ path: String) -> String {
        guard path.contains("%") else { return path }
        return decode(path.replacingOccurrences(of: "+", with: "%2B"))
    }
}
