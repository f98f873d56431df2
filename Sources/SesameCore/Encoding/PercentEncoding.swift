/// RFC 3986 percent-encoding and `application/x-www-form-urlencoded`, written out so request
/// shapes do not depend on Foundation's character sets: the one form encoder and decoder of the
/// adapters and the emulator.
public enum PercentEncoding {
    /// Encodes everything but the unreserved characters `A-Z a-z 0-9 - . _ ~`: for query values
    /// and `application/x-www-form-urlencoded` bodies (spaces become `%20`).
    public static func queryValue(_ text: String) -> String {
        encode(text, keeping: { isUnreserved($0) })
    }

    /// Encodes one path segment: unreserved characters and `,` stay, everything else
    /// (including `/`, `?`, `#`, `%` and non-ASCII) is encoded.
    public static func pathSegment(_ text: String) -> String {
        encode(text, keeping: { isUnreserved($0) || $0 == UInt8(ascii: ",") })
    }

    /// `name=value&…` with both sides encoded.
    public static func form(_ fields: [(String, String)]) -> String {
        fields.map { "\(queryValue($0.0))=\(queryValue($0.1))" }.joined(separator: "&")
    }

    /// `base`, then `?` and the fields as ``form(_:)`` when there are any.
    public static func url(_ base: String, query fields: [(String, String)]) -> String {
        fields.isEmpty ? base : base + "?" + form(fields)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    private static func encode(_ text: String, keeping keep: (UInt8) -> Bool) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if keep(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Splits `a=1&b=2` into decoded pairs, in order (`+` is a space); a pair without `=` has
    /// an empty value.
    public static func formFields(_ text: some StringProtocol) -> [(String, String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            if let equals = pair.firstIndex(of: "=") {
                return (formValue(pair[..<equals]), formValue(pair[pair.index(after: equals)...]))
            }
            return (formValue(pair), "")
        }
    }

    /// ``formFields(_:)`` as a dictionary; a repeated name keeps its first value.
    public static func formDictionary(_ text: some StringProtocol) -> [String: String] {
        var fields: [String: String] = [:]
        for (name, value) in formFields(text) where fields[name] == nil { fields[name] = value }
        return fields
    }

    /// Decodes one form name or value: `+` is a space, `%XX` a byte; a `%` not followed by two
    /// hex digits stays as it is.
    public static func formValue(_ text: some StringProtocol) -> String {
        decode(text, plusIsSpace: true)
    }

    /// Decodes a URL path: `%XX` is a byte and `+` stays `+`.
    public static func path(_ text: some StringProtocol) -> String {
        decode(text, plusIsSpace: false)
    }

    private static func decode(_ text: some StringProtocol, plusIsSpace: Bool) -> String {
        var bytes: [UInt8] = []
        var rest = Array(text.utf8)[...]
        while let byte = rest.popFirst() {
            if plusIsSpace, byte == UInt8(ascii: "+") {
                bytes.append(0x20)
            } else if byte == UInt8(ascii: "%"), rest.count >= 2, let high = hexValue(rest[rest.startIndex]),
                let low = hexValue(rest[rest.startIndex + 1])
            {
                bytes.append(high << 4 | low)
                rest = rest.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
