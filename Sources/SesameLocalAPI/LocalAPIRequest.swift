/// A request line, validated against docs/protocol.md's rules.
public struct LocalAPIRequest: Sendable, Hashable {
    /// The id to echo; nil for a notification (no `id` member), which is executed and answered
    /// never.
    public var id: LocalAPIRequestID?
    public var method: String
    public var params: LocalAPIParams

    public init(id: LocalAPIRequestID?, method: String, params: [String: JSONValue] = [:]) {
        self.id = id
        self.method = method
        self.params = LocalAPIParams(params)
    }

    /// What decoding one line produced.
    public enum Decoded: Sendable, Hashable {
        /// A valid request with an id.
        case request(LocalAPIRequest)
        /// A valid request without an id: do nothing, answer nothing.
        case notification
        /// An invalid line: answer this error with this id.
        case failure(LocalAPIRequestID, LocalAPIError)
        /// A blank line: ignore it.
        case blank
    }

    /// The request as one line of JSON (no trailing newline), as a client sends it.
    public func encoded() -> [UInt8] {
        var members: [String: JSONValue] = ["jsonrpc": "2.0", "method": .string(method)]
        if let id { members["id"] = id.json }
        if !params.values.isEmpty { members["params"] = .object(params.values) }
        return JSONValue.object(members).serialized()
    }
}

/// The `params` object with typed accessors that throw `-32602` for missing or mistyped
/// fields. Unknown fields are ignored.
public struct LocalAPIParams: Sendable, Hashable {
    public var values: [String: JSONValue]

    public init(_ values: [String: JSONValue]) { self.values = values }

    public func string(_ name: String) throws(LocalAPIError) -> String {
        guard let value = values[name], !value.isNull else {
            throw .invalidParams("The parameter \"\(name)\" is required.")
        }
        guard case .string(let s) = value else { throw .invalidParams("The parameter \"\(name)\" must be a string.") }
        return s
    }

    public func optionalString(_ name: String) throws(LocalAPIError) -> String? {
        guard let value = values[name], !value.isNull else { return nil }
        guard case .string(let s) = value else { throw .invalidParams("The parameter \"\(name)\" must be a string.") }
        return s
    }

    public func optionalBool(_ name: String) throws(LocalAPIError) -> Bool? {
        guard let value = values[name], !value.isNull else { return nil }
        guard case .bool(let b) = value else {
            throw .invalidParams("The parameter \"\(name)\" must be true or false.")
        }
        return b
    }

    public func optionalNumber(_ name: String) throws(LocalAPIError) -> Double? {
        guard let value = values[name], !value.isNull else { return nil }
        guard let d = value.doubleValue, d.isFinite else {
            throw .invalidParams("The parameter \"\(name)\" must be a number.")
        }
        return d
    }

    public func optionalStringArray(_ name: String) throws(LocalAPIError) -> [String]? {
        guard let value = values[name], !value.isNull else { return nil }
        guard case .array(let items) = value else {
            throw .invalidParams("The parameter \"\(name)\" must be an array of strings.")
        }
        var strings: [String] = []
        for item in items {
            guard case .string(let s) = item else {
                throw .invalidParams("The parameter \"\(name)\" must be an array of strings.")
            }
            strings.append(s)
        }
        return strings
    }

    public func object(_ name: String) throws(LocalAPIError) -> LocalAPIParams {
        guard let value = values[name], !value.isNull else {
            throw .invalidParams("The parameter \"\(name)\" is required.")
        }
        guard case .object(let o) = value else { throw .invalidParams("The parameter \"\(name)\" must be an object.") }
        return LocalAPIParams(o)
    }
}
