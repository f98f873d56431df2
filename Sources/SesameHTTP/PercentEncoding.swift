import NIOCore
import NIOHTTP1

/// RFC 3986 percent-encoding, written out so request shapes do not depend on Foundation's
/// character sets.
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
}

extension HTTPRequest {
    /// A request with `fields` as an `application/x-www-form-urlencoded` body.
    public static func form(
        name: String, method: HTTPMethod, url: String, headers: HTTPHeaders = [:], fields: [(String, String)]
    ) -> HTTPRequest {
        var headers = headers
        headers.replaceOrAdd(name: "Content-Type", value: "application/x-www-form-urlencoded")
        return HTTPRequest(
            name: name, method: method, url: url, headers: headers,
            body: ByteBuffer(string: PercentEncoding.form(fields)))
    }
}
