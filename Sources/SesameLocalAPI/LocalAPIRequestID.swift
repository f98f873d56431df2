/// The `id` of a request: a number, a string or null, echoed unchanged in the response.
public enum LocalAPIRequestID: Sendable, Hashable, CustomStringConvertible {
    case integer(Int64)
    case number(Double)
    case string(String)
    case null

    /// The id as it goes back on the wire.
    public var json: JSONValue {
        switch self {
        case .integer(let i): .integer(i)
        case .number(let d): .number(d)
        case .string(let s): .string(s)
        case .null: .null
        }
    }

    /// The id of a JSON value, or nil when the value cannot be an id (object, array, bool).
    public init?(json: JSONValue) {
        switch json {
        case .integer(let i): self = .integer(i)
        case .number(let d): self = .number(d)
        case .string(let s): self = .string(s)
        case .null: self = .null
        default: return nil
        }
    }

    public var description: String { json.jsonString }
}
