/// A strict, allocation-light JSON parser (RFC 8259) for one wire line.
///
/// It lives in this target, not in Foundation, so the framing and validation code can be
/// fuzzed with coverage and costs no bridging. Nesting is capped at 64 levels.
extension JSONValue {
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        public var offset: Int
        public var reason: String
        public var description: String { "\(reason) at byte \(offset)" }
    }

    /// Parses exactly one JSON value (surrounded by optional white space) from `bytes`.
    public static func parse<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(ParseError) -> JSONValue {
        let array = Array(bytes)
        var parser = JSONParser(bytes: array)
        return try parser.parseDocument()
    }

    public static func parse(_ string: String) throws(ParseError) -> JSONValue {
        try parse(Array(string.utf8))
    }
}

struct JSONParser {
    let bytes: [UInt8]
    var index = 0
    var depth = 0
    static let maximumDepth = 64

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func parseDocument() throws(JSONValue.ParseError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw fail("unexpected data after the value") }
        return value
    }

    func fail(_ reason: String) -> JSONValue.ParseError { .init(offset: index, reason: reason) }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func parseValue() throws(JSONValue.ParseError) -> JSONValue {
        guard index < bytes.count else { throw fail("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw fail("unexpected character")
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONValue.ParseError) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw fail("unexpected end of input") }
        let matches = literal.withUTF8Buffer { buffer in
            bytes[index..<index + count].elementsEqual(buffer)
        }
        guard matches else { throw fail("invalid literal") }
        index += count
    }

    mutating func enter() throws(JSONValue.ParseError) {
        depth += 1
        if depth > Self.maximumDepth { throw fail("nesting too deep") }
    }

    mutating func parseObject() throws(JSONValue.ParseError) -> JSONValue {
        var members: [String: JSONValue] = [:]
        try parseMembers { key, _, value in members[key] = value }
        return .object(members)
    }

    /// Parses the object at `index` and hands each member to `each`, in order, with where its
    /// value's bytes are. ``parseObject()`` collects them into a dictionary; the request
    /// decoder keeps only the four it needs, without one.
    mutating func parseMembers(
        _ each: (_ key: String, _ valueBytes: Range<Int>, _ value: JSONValue) -> Void
    ) throws(JSONValue.ParseError) {
        try enter()
        defer { depth -= 1 }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a member name") }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            index += 1
            skipWhitespace()
            let start = index
            let value = try parseValue()
            each(key, start..<index, value)
            skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of input") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return
            }
            throw fail("expected ',' or '}'")
        }
    }

    mutating func parseArray() throws(JSONValue.ParseError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of input") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            throw fail("expected ',' or ']'")
        }
    }

    mutating func parseNumber() throws(JSONValue.ParseError) -> JSONValue {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw fail("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if isDigit(bytes[index]) {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        } else {
            throw fail("invalid number")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .integer(integer) }
        guard let double = Double(text), double.isFinite else { throw fail("number out of range") }
        return .number(double)
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

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
                    run = bytes.withUnsafeBufferPointer {
                        String(decoding: UnsafeBufferPointer(rebasing: $0[runStart..<end]), as: UTF8.self)
                    }
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
