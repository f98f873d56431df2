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
        if rank(a) != rank(b) { return sign(rank(a), rank(b)) }
        switch (a, b) {
        case (.integer(let x), .integer(let y)): return sign(x, y)
        case (.string(let x), .string(let y)): return compareStrings(x, y)
        default: return sign(a.doubleValue ?? 0, b.doubleValue ?? 0)
        }
    }

    /// -1, 0 or 1 as key `a` orders before, with or after key `b`.
    static func compareKeys(_ a: String, _ b: String) -> Int {
        switch (integerKey(a), integerKey(b)) {
        case (let x?, let y?): return sign(x, y)
        case (.some, nil): return -1
        case (nil, .some): return 1
        case (nil, nil): return compareStrings(a, b)
        }
    }

    /// The key as a 32-bit integer when it is one written canonically (`"7"`, `"-3"`, not `"07"`).
    static func integerKey(_ key: String) -> Int32? { Int32(key).flatMap { String($0) == key ? $0 : nil } }

    static func compareStrings(_ a: String, _ b: String) -> Int {
        a.utf16.elementsEqual(b.utf16) ? 0 : a.utf16.lexicographicallyPrecedes(b.utf16) ? -1 : 1
    }

    private static func sign<T: Comparable>(_ a: T, _ b: T) -> Int { a == b ? 0 : a < b ? -1 : 1 }
}
