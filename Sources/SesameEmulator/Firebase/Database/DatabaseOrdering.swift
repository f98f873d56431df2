import SesameLocalAPI

/// Realtime Database ordering rules, used by queries.
///
/// Values order as: nothing (null), `false`, `true`, numbers ascending, strings by UTF-16 code
/// units (as JavaScript compares them), then objects; ties are broken by key. Keys order as
/// 32-bit integers first (numerically), then every other key as a string.
enum DatabaseOrdering {
    /// The rank of a value's type in the value order.
    static func rank(_ value: JSONValue) -> Int {
        switch value {
        case .null: 0
        case .bool(false): 1
        case .bool(true): 2
        case .integer, .number: 3
        case .string: 4
        case .array, .object: 5
        }
    }

    /// -1, 0 or 1 as `a` orders before, with or after `b` by value alone; objects all tie.
    static func compareValues(_ a: JSONValue, _ b: JSONValue) -> Int {
        let (ra, rb) = (rank(a), rank(b))
        if ra != rb { return ra < rb ? -1 : 1 }
        switch (a, b) {
        case (.integer(let x), .integer(let y)): return x == y ? 0 : (x < y ? -1 : 1)
        case (.string(let x), .string(let y)): return compareStrings(x, y)
        default:
            guard let x = a.doubleValue, let y = b.doubleValue else { return 0 }
            return x == y ? 0 : (x < y ? -1 : 1)
        }
    }

    /// -1, 0 or 1 as key `a` orders before, with or after key `b`.
    static func compareKeys(_ a: String, _ b: String) -> Int {
        switch (integerKey(a), integerKey(b)) {
        case (let x?, let y?): return x == y ? 0 : (x < y ? -1 : 1)
        case (.some, nil): return -1
        case (nil, .some): return 1
        case (nil, nil): return compareStrings(a, b)
        }
    }

    /// The key as a 32-bit integer when it is one written canonically (`"7"`, `"-3"`, not `"07"`).
    static func integerKey(_ key: String) -> Int32? {
        guard let value = Int32(key), String(value) == key else { return nil }
        return value
    }

    static func compareStrings(_ a: String, _ b: String) -> Int {
        if a.utf16.elementsEqual(b.utf16) { return 0 }
        return a.utf16.lexicographicallyPrecedes(b.utf16) ? -1 : 1
    }
}
