/// A JSON value as the emulator stores and exchanges it.
///
/// Objects are unordered; ``serialized()`` writes their keys sorted so that the same value
/// always gives the same bytes (the RTDB ETag depends on that). Integers that fit `Int` are kept
/// exactly; other numbers are `Double`.
enum JSON: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    /// The string, if this is a string.
    var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The Boolean, if this is a Boolean.
    var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The number as an `Int`, if this is an integer (or a `Double` with no fraction).
    var intValue: Int? {
        switch self {
        case .int(let i): return i
        case .double(let d) where d.rounded() == d && abs(d) < 9.0e18: return Int(d)
        default: return nil
        }
    }

    /// The members, if this is an object.
    var objectValue: [String: JSON]? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The elements, if this is an array.
    var arrayValue: [JSON]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// Whether this is `null`.
    var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The member `key` of an object, `nil` for anything else or a missing member.
    subscript(key: String) -> JSON? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    /// A short name of the value's type, for error messages.
    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .int, .double: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

extension JSON: Equatable {
    /// Structural equality in which numbers compare by value (`1 == 1.0`), as JSON does.
    static func == (lhs: JSON, rhs: JSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)): return Double(a) == b && b.rounded() == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)): return a == b
        default: return false
        }
    }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral, ExpressibleByNilLiteral
{
    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .int(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    init(arrayLiteral elements: JSON...) { self = .array(elements) }
    init(nilLiteral: ()) { self = .null }
}
