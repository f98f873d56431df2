/// The little JSON `sesamectl` composes itself (the objects come from the daemon already
/// serialized).
enum JSONText {
    /// `s` as a JSON string literal.
    static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// An object of members already in JSON, in the given order.
    static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { quote($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    static func optional(_ s: String?) -> String { s.map(quote) ?? "null" }
}
