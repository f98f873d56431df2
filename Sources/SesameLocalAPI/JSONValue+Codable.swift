/// A ``JSONValue`` inside `Codable` types: decodes any JSON value, encodes itself as it is
/// (integers as integers, numbers as numbers).
extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Most likely first: every failed attempt costs a thrown DecodingError.
        if container.decodeNil() {
            self = .null
        } else if let s = try? container.decode(String.self) {
            self = .string(s)
        } else if let i = try? container.decode(Int64.self) {
            self = .integer(i)
        } else if let b = try? container.decode(Bool.self) {
            self = .bool(b)
        } else if let o = try? container.decode([String: JSONValue].self) {
            self = .object(o)
        } else if let a = try? container.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .number(try container.decode(Double.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let b): try container.encode(b)
        case .integer(let i): try container.encode(i)
        case .number(let d):
            // Integral numbers within ±2^53 are written as integers, so 1.0 and 1 encode alike.
            if d.rounded() == d, abs(d) < 9_007_199_254_740_992 {
                try container.encode(Int64(d))
            } else {
                try container.encode(d)
            }
        case .string(let s): try container.encode(s)
        case .array(let a): try container.encode(a)
        case .object(let o): try container.encode(o)
        }
    }
}
