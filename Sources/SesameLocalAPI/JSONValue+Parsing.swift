/// A strict, allocation-light JSON parser (RFC 8259) for one wire line.
///
/// It lives in this target, not in Foundation, so the framing and validation code can be
/// fuzzed with coverage and costs no bridging. Nesting is capped at 64 levels.
extension JSONValue {
    /// How deep ``parse(_:maximumDepth:)`` lets values nest unless told otherwise.
    public static let defaultMaximumDepth = 64

    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        public var offset: Int
        public var reason: String
        public var description: String { "\(reason) at byte \(offset)" }
    }

    /// Parses exactly one JSON value (surrounded by optional white space) from `bytes`, nested
    /// at most `maximumDepth` levels (64 unless given: a wire line never needs more).
    public static func parse<Bytes: Collection<UInt8>>(
        _ bytes: Bytes, maximumDepth: Int = defaultMaximumDepth
    ) throws(ParseError) -> JSONValue {
        let result = Array(bytes).withUnsafeBytes { raw in
            var parser = JSONParser(bytes: raw, maximumDepth: maximumDepth)
            return Result { () throws(ParseError) in try parser.parseDocument() }
        }
        return try result.get()
    }

    public static func parse(_ string: String) throws(ParseError) -> JSONValue {
        try parse(Array(string.utf8))
    }
}

/// Reads borrowed bytes (valid while the parser is used, as inside `withUnsafeBytes`): a
/// request line is parsed where the socket's read put it, without a copy.
struct JSONParser {
    let bytes: UnsafeRawBufferPointer
    var index = 0
    var depth = 0
    let maximumDepth: Int

    init(bytes: UnsafeRawBufferPointer, maximumDepth: Int = JSONValue.defaultMaximumDepth) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

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
        if depth > maximumDepth { throw fail("nesting too deep") }
    }

    mutating func parseObject() throws(JSONValue.ParseError) -> JSONValue {
        var members: [String: JSONValue] = [:]
        try enterObject()
        var first = true
        while let name = try nextMemberName(first: first) {
            first = false
            members[name.string] = try parseValue()
        }
        return .object(members)
    }

    /// Steps into the object at `index` (its `{`); then ``nextMemberName(first:)`` walks it.
    mutating func enterObject() throws(JSONValue.ParseError) {
        try enter()
        index += 1
    }

    /// Reads the next member's name and its `:`, leaving `index` at the value, which the caller
    /// reads (``parseValue()``) before asking again; nil at the object's `}`. `first`: no member
    /// was read yet. ``parseObject()`` collects the members into a dictionary; the request
    /// decoder keeps only the ones it needs, without one.
    mutating func nextMemberName(first: Bool) throws(JSONValue.ParseError) -> Name? {
        skipWhitespace()
        if first {
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                return nil
            }
        } else {
            guard index < bytes.count else { throw fail("unexpected end of input") }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return nil
            default:
                throw fail("expected ',' or '}'")
            }
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a member name") }
        let name = try parseName()
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
        index += 1
        skipWhitespace()
        return name
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
        if isInteger, let integer = smallInteger(start..<index) { return .integer(integer) }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .integer(integer) }
        guard let double = Double(text), double.isFinite else { throw fail("number out of range") }
        return .number(double)
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// An integer of at most 18 digits (it cannot overflow), read without making a string.
    func smallInteger(_ range: Range<Int>) -> Int64? {
        let negative = bytes[range.lowerBound] == UInt8(ascii: "-")
        let digits = negative ? range.dropFirst() : range[...]
        guard digits.count <= 18 else { return nil }
        var value: Int64 = 0
        for position in digits { value = value * 10 + Int64(bytes[position] &- UInt8(ascii: "0")) }
        return negative ? -value : value
    }
}
