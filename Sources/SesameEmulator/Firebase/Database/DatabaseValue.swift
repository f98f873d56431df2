import Crypto
import SesameCore
import SesameLocalAPI

/// How the database stores values: no nulls and no empty containers inside objects, arrays as
/// integer-keyed objects, server values resolved. Reading turns dense integer-keyed objects back
/// into arrays.
enum DatabaseValue {
    /// The stored form of a written value; `.null` means "nothing here".
    /// - Parameter now: milliseconds since 1970, for `{".sv":"timestamp"}`.
    /// - Throws: ``DatabaseError`` for invalid keys or unknown server values.
    static func normalize(_ value: JSONValue, now: Int) throws(DatabaseError) -> JSONValue {
        switch value {
        case .object(let o):
            if let sv = o[".sv"] {
                if sv.stringValue == "timestamp" { return .int(now) }
                throw .badRequest("Invalid data; unsupported server value \(sv.jsonString).")
            }
            if let inner = o[".value"] { return try normalize(inner, now: now) }
            var out: [String: JSONValue] = [:]
            for (key, child) in o {
                if key == ".priority" { continue }
                guard DatabasePath.isValidKey(key) else { throw .invalidKey(key) }
                let n = try normalize(child, now: now)
                if !n.isNull { out[key] = n }
            }
            return out.isEmpty ? .null : .object(out)
        case .array(let a): return try normalize(.object(indexed(a)), now: now)
        default: return value
        }
    }

    /// The value as a client reads it: integer-keyed objects with more than half of the indices
    /// `0…max` present become arrays (missing entries `null`).
    static func presentation(_ value: JSONValue) -> JSONValue {
        guard case .object(let o) = value else { return value }
        let indices = o.keys.compactMap { key in Int(key).flatMap { $0 >= 0 && String($0) == key ? $0 : nil } }
        if indices.count == o.count, let maxIndex = indices.max(), o.count * 2 > maxIndex + 1 {
            var array = [JSONValue](repeating: .null, count: maxIndex + 1)
            for (key, child) in o { array[Int(key)!] = presentation(child) }
            return .array(array)
        }
        return .object(o.mapValues(presentation))
    }

    /// An array as the database stores it: an object keyed by the indices.
    static func indexed(_ array: [JSONValue]) -> [String: JSONValue] {
        Dictionary(uniqueKeysWithValues: array.enumerated().map { (String($0.offset), $0.element) })
    }

    /// `shallow=true`: an object's children become `true`; primitives are unchanged.
    static func shallow(_ value: JSONValue) -> JSONValue {
        value.objectValue.map { .object($0.mapValues { _ in .bool(true) }) } ?? value
    }

    /// The value at `keys` under `root` (`.null` when absent).
    static func child(of root: JSONValue, at keys: some Sequence<String>) -> JSONValue {
        keys.reduce(root) { node, key in node[key] ?? .null }
    }

    /// `root` with the location `keys` replaced by `value` (already normalised); parents left
    /// empty are removed.
    static func replacing(in root: JSONValue, at keys: ArraySlice<String>, with value: JSONValue) -> JSONValue {
        guard let first = keys.first else { return value }
        var o = root.objectValue ?? [:]
        let updated = replacing(in: o.removeValue(forKey: first) ?? .null, at: keys.dropFirst(), with: value)
        if !updated.isNull { o[first] = updated }
        return o.isEmpty ? .null : .object(o)
    }

    /// The ETag of a stored value: `null_etag` for nothing, else base64 of the SHA-1 of its
    /// canonical (key-sorted) JSON.
    static func etag(of value: JSONValue) -> String {
        if value.isNull { return "null_etag" }
        return Base64URL.standard(Insecure.SHA1.hash(data: value.serialized()))
    }
}
