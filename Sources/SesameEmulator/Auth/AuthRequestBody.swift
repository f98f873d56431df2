/// The JSON body of an Identity Toolkit request, with keys normalised to camelCase.
///
/// Accessors check types the way the emulator's schema validation does: numbers are accepted
/// where strings are expected, `null` counts as absent, anything else of the wrong type is a
/// 400 `INVALID_ARGUMENT`.
struct AuthRequestBody: Sendable {
    private(set) var fields: [String: JSON]

    init(fields: [String: JSON]) {
        var normalised: [String: JSON] = [:]
        for (key, value) in fields { normalised[AuthRequestBody.camelCase(key)] = value }
        self.fields = normalised
    }

    /// Parses a JSON object body (an empty body is `{}`).
    /// - Throws: ``IdentityToolkitError`` for text that is not JSON or not an object.
    static func parse(_ bytes: [UInt8]) throws(IdentityToolkitError) -> AuthRequestBody {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            return AuthRequestBody(fields: [:])
        }
        let value: JSON
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw .parseError(error.message)
        }
        guard case .object(let o) = value else {
            throw .parseError("Expected a JSON object, got \(value.typeName).")
        }
        return AuthRequestBody(fields: o)
    }

    /// `snake_case` → `camelCase`; keys without `_` are unchanged.
    static func camelCase(_ key: String) -> String {
        guard key.contains("_") else { return key }
        var out = ""
        var upper = false
        for ch in key {
            if ch == "_" {
                upper = !out.isEmpty
                continue
            }
            out.append(upper ? Character(ch.uppercased()) : ch)
            upper = false
        }
        return out
    }

    func has(_ key: String) -> Bool {
        if let v = fields[key], !v.isNull { return true }
        return false
    }

    /// A string field (numbers are coerced); `nil` when absent or null.
    func string(_ key: String) throws(IdentityToolkitError) -> String? {
        switch fields[key] {
        case nil, .null?: return nil
        case .string(let s)?: return s
        case .int(let i)?: return String(i)
        case .double(let d)?: return JSON.double(d).serialized()
        case let other?: throw .invalidArgument("Invalid JSON payload received. /\(key) should be string, got \(other.typeName)")
        }
    }

    /// A string field that counts only when non-empty (the emulator's "truthy" test).
    func nonEmpty(_ key: String) throws(IdentityToolkitError) -> String? {
        guard let s = try string(key), !s.isEmpty else { return nil }
        return s
    }

    func bool(_ key: String) throws(IdentityToolkitError) -> Bool? {
        switch fields[key] {
        case nil, .null?: return nil
        case .bool(let b)?: return b
        case .string("true")?: return true
        case .string("false")?: return false
        case let other?: throw .invalidArgument("Invalid JSON payload received. /\(key) should be boolean, got \(other.typeName)")
        }
    }

    /// An integer field; int64 values may arrive as strings.
    func int(_ key: String) throws(IdentityToolkitError) -> Int? {
        switch fields[key] {
        case nil, .null?: return nil
        case .string(let s)?:
            if let i = Int(s) { return i }
            throw .invalidArgument("Invalid JSON payload received. /\(key) should be integer")
        case let v?:
            if let i = v.intValue { return i }
            throw .invalidArgument("Invalid JSON payload received. /\(key) should be integer, got \(v.typeName)")
        }
    }

    func stringArray(_ key: String) throws(IdentityToolkitError) -> [String]? {
        switch fields[key] {
        case nil, .null?: return nil
        case .array(let a)?:
            var out: [String] = []
            for element in a {
                switch element {
                case .string(let s): out.append(s)
                case .int(let i): out.append(String(i))
                default: throw .invalidArgument("Invalid JSON payload received. /\(key) should be array of strings")
                }
            }
            return out
        case .string(let s)?: return [s]
        case let other?: throw .invalidArgument("Invalid JSON payload received. /\(key) should be array, got \(other.typeName)")
        }
    }

    func objectArray(_ key: String) throws(IdentityToolkitError) -> [AuthRequestBody]? {
        switch fields[key] {
        case nil, .null?: return nil
        case .array(let a)?:
            var out: [AuthRequestBody] = []
            for element in a {
                guard case .object(let o) = element else {
                    throw .invalidArgument("Invalid JSON payload received. /\(key) should be array of objects")
                }
                out.append(AuthRequestBody(fields: o))
            }
            return out
        case let other?: throw .invalidArgument("Invalid JSON payload received. /\(key) should be array, got \(other.typeName)")
        }
    }

    func object(_ key: String) throws(IdentityToolkitError) -> [String: JSON]? {
        switch fields[key] {
        case nil, .null?: return nil
        case .object(let o)?: return o
        case let other?: throw .invalidArgument("Invalid JSON payload received. /\(key) should be object, got \(other.typeName)")
        }
    }

    /// Adds fields that are not already present (used to merge query parameters for GET calls).
    mutating func merge(defaults: [String: JSON]) {
        for (k, v) in defaults where fields[AuthRequestBody.camelCase(k)] == nil {
            fields[AuthRequestBody.camelCase(k)] = v
        }
    }
}
