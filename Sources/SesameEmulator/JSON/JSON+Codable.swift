import Foundation

/// Why a body could not be read as JSON.
struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Human-readable text such as `Unexpected token.`; never quotes the input.
    let message: String
    var description: String { message }
}

extension JSON: Codable {
    /// Nesting deeper than this is refused before decoding, so hostile input cannot exhaust the
    /// stack.
    static let maximumDepth = 256

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Most likely first: every failed attempt costs a thrown DecodingError.
        if container.decodeNil() {
            self = .null
        } else if let s = try? container.decode(String.self) {
            self = .string(s)
        } else if let i = try? container.decode(Int.self) {
            self = .int(i)
        } else if let b = try? container.decode(Bool.self) {
            self = .bool(b)
        } else if let o = try? container.decode([String: JSON].self) {
            self = .object(o)
        } else if let a = try? container.decode([JSON].self) {
            self = .array(a)
        } else {
            self = .double(try container.decode(Double.self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let b): try container.encode(b)
        case .int(let i): try container.encode(i)
        case .double(let d):
            // Integral doubles within ±2^53 are written as integers, so 1.0 and 1 encode alike.
            if d.rounded() == d, abs(d) < 9_007_199_254_740_992 {
                try container.encode(Int(d))
            } else {
                try container.encode(d)
            }
        case .string(let s): try container.encode(s)
        case .array(let a): try container.encode(a)
        case .object(let o): try container.encode(o)
        }
    }

    /// Decodes one JSON document (Foundation's `JSONDecoder`).
    /// - Throws: ``JSONParseError`` for text that is not JSON or nests deeper than ``maximumDepth``.
    static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSON {
        try decode(JSON.self, from: bytes)
    }

    /// Decodes a Swift string as one JSON document.
    static func parse(_ text: String) throws(JSONParseError) -> JSON {
        try parse(Array(text.utf8))
    }

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

    /// Compact JSON text with object keys sorted, so equal values always give identical text
    /// (the RTDB ETag depends on that).
    func serialized() -> String {
        String(decoding: serializedBytes(), as: UTF8.self)
    }

    /// UTF-8 bytes of ``serialized()``.
    func serializedBytes() -> [UInt8] {
        JSON.encodedBytes(self)
    }

    /// Canonical bytes of any `Encodable`: compact, keys sorted, slashes unescaped.
    static func encodedBytes(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every value the emulator encodes is finite and string-keyed, so encoding cannot fail.
        return (try? Array(encoder.encode(value))) ?? Array("null".utf8)
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
