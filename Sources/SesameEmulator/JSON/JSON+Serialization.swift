extension JSON {
    /// Compact JSON text with object keys sorted by their UTF-8 bytes.
    ///
    /// Deterministic: equal values always give identical text. Integral doubles within ±2^53 are
    /// written without a fraction, so `1.0` and `1` serialise alike.
    func serialized() -> String {
        var out = ""
        out.reserveCapacity(64)
        write(into: &out)
        return out
    }

    /// UTF-8 bytes of ``serialized()``.
    func serializedBytes() -> [UInt8] {
        Array(serialized().utf8)
    }

    func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d):
            if d.rounded() == d, abs(d) < 9_007_199_254_740_992 {
                out += String(Int(d))
            } else {
                out += "\(d)"
            }
        case .string(let s): JSON.writeString(s, into: &out)
        case .array(let a):
            out += "["
            var first = true
            for element in a {
                if !first { out += "," }
                first = false
                element.write(into: &out)
            }
            out += "]"
        case .object(let o):
            out += "{"
            var first = true
            for key in o.keys.sorted(by: JSON.utf8Less) {
                if !first { out += "," }
                first = false
                JSON.writeString(key, into: &out)
                out += ":"
                o[key]!.write(into: &out)
            }
            out += "}"
        }
    }

    static func utf8Less(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    static func writeString(_ s: String, into out: inout String) {
        out += "\""
        var needsEscape = false
        for b in s.utf8 where b < 0x20 || b == 0x22 || b == 0x5C {
            needsEscape = true
            break
        }
        if !needsEscape {
            out += s
            out += "\""
            return
        }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
