#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Strings and member names.
extension JSONParser {
    /// A member's name: its bytes as they lie between the quotes when they are plain ASCII
    /// (compared without making a string), else the decoded string.
    struct Name {
        var plain: UnsafeRawBufferPointer
        var decoded: String?

        var string: String {
            decoded
                ?? String(
                    decoding: UnsafeBufferPointer(
                        start: plain.baseAddress?.assumingMemoryBound(to: UInt8.self), count: plain.count),
                    as: UTF8.self)
        }

        func `is`(_ literal: StaticString) -> Bool {
            let expected = UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
            if let decoded { return decoded.utf8.elementsEqual(expected) }
            return plain.count == expected.count
                && (plain.count == 0 || memcmp(plain.baseAddress!, expected.baseAddress!, plain.count) == 0)
        }
    }

    /// Reads a member name at `index` (its opening quote).
    mutating func parseName() throws(JSONValue.ParseError) -> Name {
        var end = index + 1
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") {
                let name = Name(plain: UnsafeRawBufferPointer(rebasing: bytes[(index + 1)..<end]), decoded: nil)
                index = end + 1
                return name
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
            end += 1
        }
        return Name(plain: UnsafeRawBufferPointer(start: nil, count: 0), decoded: try parseString())
    }

    mutating func parseString() throws(JSONValue.ParseError) -> String {
        index += 1  // opening quote
        var runStart = index
        var runIsASCII = true
        var result = ""
        func flush(_ end: Int) throws(JSONValue.ParseError) {
            if end > runStart {
                let run: String
                if runIsASCII {
                    // ASCII is valid UTF-8: no validation (and no generic call) needed.
                    run = String(
                        decoding: UnsafeBufferPointer(
                            start: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + runStart,
                            count: end - runStart),
                        as: UTF8.self)
                } else {
                    guard let valid = String(validating: bytes[runStart..<end], as: UTF8.self) else {
                        throw JSONValue.ParseError(offset: runStart, reason: "invalid UTF-8")
                    }
                    run = valid
                }
                if result.isEmpty { result = run } else { result += run }
            }
            runIsASCII = true
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x80 { runIsASCII = false }
            if byte == UInt8(ascii: "\"") {
                try flush(index)
                index += 1
                return result
            }
            if byte < 0x20 { throw fail("control character in string") }
            if byte == UInt8(ascii: "\\") {
                try flush(index)
                index += 1
                guard index < bytes.count else { throw fail("unexpected end of input") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): result += "\""
                case UInt8(ascii: "\\"): result += "\\"
                case UInt8(ascii: "/"): result += "/"
                case UInt8(ascii: "b"): result += "\u{08}"
                case UInt8(ascii: "f"): result += "\u{0C}"
                case UInt8(ascii: "n"): result += "\n"
                case UInt8(ascii: "r"): result += "\r"
                case UInt8(ascii: "t"): result += "\t"
                case UInt8(ascii: "u"):
                    let first = try parseHex4()
                    if (0xD800...0xDBFF).contains(first) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                            bytes[index + 1] == UInt8(ascii: "u")
                        else { throw fail("lone surrogate") }
                        index += 2
                        let second = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(second) else { throw fail("invalid surrogate pair") }
                        let value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                        guard let scalar = Unicode.Scalar(value) else { throw fail("invalid escape") }
                        result.unicodeScalars.append(scalar)
                    } else {
                        guard let scalar = Unicode.Scalar(first) else { throw fail("lone surrogate") }
                        result.unicodeScalars.append(scalar)
                    }
                default: throw fail("invalid escape")
                }
                runStart = index
                continue
            }
            index += 1
        }
        throw fail("unterminated string")
    }

    mutating func parseHex4() throws(JSONValue.ParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("invalid \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw fail("invalid \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
