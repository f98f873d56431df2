import SesameLocalAPI

/// A request field read the way Identity Toolkit's schema validation reads JSON: `null` counts
/// as absent, numbers are accepted where strings are expected, `"true"`/`"false"` where Booleans
/// are, numeric strings where integers are (int64 values travel as strings), a single string
/// where a list is; anything else is a 400 `INVALID_ARGUMENT` naming the field.
protocol LenientValue: Sendable {
    /// The value of `json` (never `null`) at `path` (`/email`, `/expression/0/userId`).
    static func coerce(_ json: JSONValue, path: String) throws(IdentityToolkitError) -> Self
}

extension LenientValue {
    static func mismatch(_ path: String, _ expected: String, _ json: JSONValue) -> IdentityToolkitError {
        .invalidArgument("Invalid JSON payload received. \(path) should be \(expected), got \(json.typeName)")
    }
}

extension String: LenientValue {
    static func coerce(_ json: JSONValue, path: String) throws(IdentityToolkitError) -> String {
        switch json {
        case .string(let s): return s
        case .integer(let i): return String(i)
        case .number: return json.jsonString
        default: throw mismatch(path, "string", json)
        }
    }
}

extension Bool: LenientValue {
    static func coerce(_ json: JSONValue, path: String) throws(IdentityToolkitError) -> Bool {
        switch json {
        case .bool(let b): return b
        case .string("true"): return true
        case .string("false"): return false
        default: throw mismatch(path, "boolean", json)
        }
    }
}

extension Int: LenientValue {
    static func coerce(_ json: JSONValue, path: String) throws(IdentityToolkitError) -> Int {
        if case .string(let s) = json, let i = Int(s) { return i }
        if let i = json.intValue { return i }
        throw mismatch(path, "integer", json)
    }
}

extension Array: LenientValue where Element == String {
    static func coerce(_ json: JSONValue, path: String) throws(IdentityToolkitError) -> [String] {
        switch json {
        case .string(let s): return [s]
        case .array(let elements):
            return try elements.enumerated().map { index, element throws(IdentityToolkitError) in
                switch element {
                case .string(let s): return s
                case .integer(let i): return String(i)
                default: throw mismatch("\(path)/\(index)", "string", element)
                }
            }
        default: throw mismatch(path, "array", json)
        }
    }
}

extension JSONValue: LenientValue {
    static func coerce(_ json: JSONValue, path: String) throws(IdentityToolkitError) -> JSONValue { json }
}

/// Wraps a lenient request field; absent and `null` are `nil`.
@propertyWrapper
struct Field<Value: LenientValue>: Decodable, Sendable {
    var wrappedValue: Value?

    init(wrappedValue: Value? = nil) { self.wrappedValue = wrappedValue }

    init(from decoder: any Decoder) throws {
        let json = try JSONValue(from: decoder)
        let path = "/" + decoder.codingPath.map(\.stringValue).joined(separator: "/")
        wrappedValue = json.isNull ? nil : try Value.coerce(json, path: path)
    }
}

extension KeyedDecodingContainer {
    /// A missing ``Field`` is `nil`, not an error.
    func decode<Value>(_ type: Field<Value>.Type, forKey key: Key) throws -> Field<Value> {
        try decodeIfPresent(type, forKey: key) ?? Field()
    }
}
