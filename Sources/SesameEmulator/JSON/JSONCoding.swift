import Foundation
import SesameLocalAPI

/// Why a body could not be read as JSON.
struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Human-readable text such as `Unexpected token.`; never quotes the input.
    let message: String
    var description: String { message }
}

/// How the emulator reads and writes JSON besides ``JSONValue``'s own parser and writer:
/// typed bodies and answers through Foundation's coders, after ``JSONPrecheck``.
enum JSONCoding {
    /// Deeper nesting is refused before decoding, so hostile input cannot exhaust the stack.
    static let maximumDepth = 256

    /// Parses one JSON document into a ``JSONValue``, nested at most ``maximumDepth`` levels.
    static func parse(_ bytes: some Collection<UInt8>) throws(JSONValue.ParseError) -> JSONValue {
        try JSONValue.parse(bytes, maximumDepth: maximumDepth)
    }

    /// ``parse(_:)`` of a Swift string's UTF-8.
    static func parse(_ text: String) throws(JSONValue.ParseError) -> JSONValue { try parse(Array(text.utf8)) }

    /// Decodes `bytes` as `T` after the depth check; type mismatches are reported as
    /// ``JSONParseError`` too (callers that want typed errors decode themselves).
    static func decode<T: Decodable>(
        _ type: T.Type, from bytes: [UInt8], decoder: JSONDecoder = JSONDecoder()
    ) throws(JSONParseError) -> T {
        if let problem = JSONPrecheck.problem(in: bytes, maximumDepth: maximumDepth) {
            throw JSONParseError(message: problem)
        }
        do {
            return try decoder.decode(T.self, from: Data(bytes))
        } catch {
            throw JSONParseError(message: "Unexpected token.")
        }
    }

    static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    /// `bytes`, or `{}` when they are blank: a blank body reads as an empty object.
    static func objectIfBlank(_ bytes: [UInt8]) -> [UInt8] { bytes.allSatisfy(isWhitespace) ? Array("{}".utf8) : bytes }

    /// Canonical bytes of any `Encodable`: compact, keys sorted, slashes unescaped.
    static func encodedBytes(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every value the emulator encodes is finite and string-keyed, so encoding cannot fail.
        return (try? Array(encoder.encode(value))) ?? Array("null".utf8)
    }
}

extension JSONValue {
    /// `.integer(value)`: the emulator counts in `Int`.
    static func int(_ value: Int) -> JSONValue { .integer(Int64(value)) }

    /// The number as an `Int`, if this is an integer (or a number with no fraction).
    var intValue: Int? { int64Value.map { Int($0) } }

    /// An int64 as Identity Toolkit sends one: a number, or a numeric string.
    var int64TextValue: Int? {
        if case .string(let text) = self { return Int(text) }
        return intValue
    }

    /// A short name of the value's type, for error messages.
    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer, .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

/// Checks run over the raw text before Foundation's decoder sees it, for what that decoder lets
/// through or only notices lazily: nesting deeper than a limit, control characters inside
/// strings (also in fields a typed body ignores), and trailing commas. The text is otherwise not
/// validated here.
enum JSONPrecheck {
    /// What is wrong with `bytes`, or `nil`.
    static func problem(in bytes: [UInt8], maximumDepth: Int) -> String? {
        var depth = 0
        var inString = false
        var escaped = false
        var lastSignificant: UInt8 = 0
        for b in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if b == UInt8(ascii: "\\") {
                    escaped = true
                } else if b == UInt8(ascii: "\"") {
                    inString = false
                    lastSignificant = b
                } else if b < 0x20 {
                    return "Control character in a string."
                }
                continue
            }
            switch b {
            case 0x20, 0x09, 0x0A, 0x0D: continue
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > maximumDepth { return "Nesting deeper than \(maximumDepth) levels." }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if lastSignificant == UInt8(ascii: ",") { return "Trailing comma." }
                depth -= 1
            default: break
            }
            lastSignificant = b
        }
        return nil
    }
}
