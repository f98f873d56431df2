/// A request line, validated against docs/protocol.md's rules.
public struct LocalAPIRequest: Sendable, Hashable {
    /// The id to echo; nil for a notification (no `id` member), which is executed and answered
    /// never.
    public var id: LocalAPIRequestID?
    public var method: String
    public var params: LocalAPIParams

    public init(id: LocalAPIRequestID?, method: String, params: [String: JSONValue] = [:]) {
        self.init(id: id, method: method, params: LocalAPIParams(params))
    }

    public init(id: LocalAPIRequestID?, method: String, params: LocalAPIParams) {
        self.id = id
        self.method = method
        self.params = params
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
///
/// The members are kept as a list, as they came (a request has a handful): reading one is a
/// short scan, with no dictionary to build and no name to hash. Of a repeated name, the last
/// one counts, as in a dictionary.
public struct LocalAPIParams: Sendable, Hashable {
    public struct Member: Sendable, Hashable {
        public var name: String
        public var value: JSONValue
    }

    private var members: [Member]

    public init(_ values: [String: JSONValue]) {
        members = values.map { Member(name: $0.key, value: $0.value) }
    }

    init(members: [Member]) { self.members = members }

    /// The members by name.
    public var values: [String: JSONValue] {
        Dictionary(members.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    public static func == (lhs: LocalAPIParams, rhs: LocalAPIParams) -> Bool { lhs.values == rhs.values }

    public func hash(into hasher: inout Hasher) { hasher.combine(values) }

    private func member(_ name: String) -> JSONValue? {
        for member in members.reversed() where member.name == name { return member.value }
        return nil
    }

    public func string(_ name: String) throws(LocalAPIError) -> String {
        guard let value = member(name), !value.isNull else {
            throw .invalidParams("The parameter \"\(name)\" is required.")
        }
        guard case .string(let s) = value else { throw .invalidParams("The parameter \"\(name)\" must be a string.") }
        return s
    }

    public func optionalString(_ name: String) throws(LocalAPIError) -> String? {
        guard let value = member(name), !value.isNull else { return nil }
        guard case .string(let s) = value else { throw .invalidParams("The parameter \"\(name)\" must be a string.") }
        return s
    }

    public func optionalBool(_ name: String) throws(LocalAPIError) -> Bool? {
        guard let value = member(name), !value.isNull else { return nil }
        guard case .bool(let b) = value else {
            throw .invalidParams("The parameter \"\(name)\" must be true or false.")
        }
        return b
    }

    public func optionalNumber(_ name: String) throws(LocalAPIError) -> Double? {
        guard let value = member(name), !value.isNull else { return nil }
        guard let d = value.doubleValue, d.isFinite else {
            throw .invalidParams("The parameter \"\(name)\" must be a number.")
        }
        return d
    }

    public func optionalStringArray(_ name: String) throws(LocalAPIError) -> [String]? {
        guard let value = member(name), !value.isNull else { return nil }
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
        guard let value = member(name), !value.isNull else {
            throw .invalidParams("The parameter \"\(name)\" is required.")
        }
        guard case .object(let o) = value else { throw .invalidParams("The parameter \"\(name)\" must be an object.") }
        return LocalAPIParams(o)
    }
}
