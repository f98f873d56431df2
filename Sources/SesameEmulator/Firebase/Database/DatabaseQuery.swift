import SesameLocalAPI

/// A `GET` query: `orderBy` with `startAt`/`startAfter`, `endAt`/`endBefore`, `equalTo` and
/// `limitToFirst`/`limitToLast`, every parameter JSON-encoded as the REST API wants.
///
/// Unlike production, and like Google's emulator, ordering by an unindexed child is allowed
/// (no `.indexOn` is needed).
struct DatabaseQuery: Sendable, Equatable {
    enum Order: Sendable, Equatable {
        case key
        case value
        /// `$priority`: priorities are not stored, so every child ties and keys decide.
        case priority
        case child(DatabasePath)
    }

    var order: Order
    var startAt: JSONValue?
    var startAfter: JSONValue?
    var endAt: JSONValue?
    var endBefore: JSONValue?
    var limitToFirst: Int?
    var limitToLast: Int?

    /// The query in `parameters`, or nil when there is none.
    /// - Throws: ``DatabaseError`` (400) for a malformed or contradictory query.
    init?(parameters: [String: String]) throws(DatabaseError) {
        let names = [
            "orderBy", "equalTo", "startAt", "endAt", "startAfter", "endBefore", "limitToFirst", "limitToLast",
        ]
        guard names.contains(where: { parameters[$0] != nil }) else { return nil }
        guard let rawOrder = parameters["orderBy"] else {
            throw .badRequest("orderBy must be defined when other query parameters are defined")
        }
        guard case .string(let orderName) = Self.parse(rawOrder) else {
            throw .badRequest("orderBy must be a valid JSON encoded path")
        }
        let named: [String: Order] = ["$key": .key, "$value": .value, "$priority": .priority]
        let path = try? DatabasePath(urlPath: orderName)
        guard let order = named[orderName] ?? path.flatMap({ $0.keys.isEmpty ? nil : .child($0) }) else {
            throw .badRequest("orderBy must be a valid JSON encoded path")
        }
        self.order = order
        if parameters["shallow"] != nil {
            throw .badRequest("Mixing 'shallow' and querying parameters is not supported")
        }
        func bound(_ name: String) throws(DatabaseError) -> JSONValue? {
            guard let raw = parameters[name] else { return nil }
            guard let value = Self.parse(raw) else { throw .badRequest("\(name) must be a valid JSON value") }
            if value.arrayValue != nil || value.objectValue != nil {
                throw .badRequest("\(name) must be a JSON primitive (string, number, boolean or null)")
            }
            if order == .key, value.stringValue == nil {
                throw .badRequest("\(name) must be a string when orderBy is $key")
            }
            return value
        }
        startAt = try bound("startAt")
        startAfter = try bound("startAfter")
        endAt = try bound("endAt")
        endBefore = try bound("endBefore")
        if let equal = try bound("equalTo") {
            if startAt != nil || endAt != nil || startAfter != nil || endBefore != nil {
                throw .badRequest("equalTo cannot be combined with startAt, endAt, startAfter or endBefore")
            }
            startAt = equal
            endAt = equal
        }
        if startAt != nil && startAfter != nil { throw .badRequest("startAt and startAfter cannot both be set") }
        if endAt != nil && endBefore != nil { throw .badRequest("endAt and endBefore cannot both be set") }
        func limit(_ name: String) throws(DatabaseError) -> Int? {
            guard let raw = parameters[name] else { return nil }
            guard let n = Self.parse(raw)?.int64Value, n > 0, n <= Int64(Int32.max) else {
                throw .badRequest("\(name) must be a positive integer")
            }
            return Int(n)
        }
        limitToFirst = try limit("limitToFirst")
        limitToLast = try limit("limitToLast")
        if limitToFirst != nil && limitToLast != nil {
            throw .badRequest("limitToFirst and limitToLast cannot both be set")
        }
    }

    /// The children of `value` the query selects, in query order (none for a primitive).
    func select(from value: JSONValue) -> [(key: String, value: JSONValue)] {
        guard case .object(let children) = value else { return [] }
        var items = children.map { (key: $0.key, value: $0.value) }
        items.sort { compare($0, $1) < 0 }
        items.removeAll { !isWithinBounds($0) }
        if let n = limitToFirst, items.count > n { items.removeLast(items.count - n) }
        if let n = limitToLast, items.count > n { items.removeFirst(items.count - n) }
        return items
    }

    /// The answer to a `GET` with this query: the selected children as an object.
    func apply(to value: JSONValue) -> JSONValue {
        guard case .object = value else { return value }
        var out: [String: JSONValue] = [:]
        for item in select(from: value) { out[item.key] = item.value }
        return out.isEmpty ? .null : .object(out)
    }

    /// The value a child is ordered by.
    func orderValue(of child: JSONValue) -> JSONValue {
        switch order {
        case .key, .priority: .null
        case .value: child
        case .child(let path): DatabaseValue.child(of: child, at: path.keys)
        }
    }

    func compare(_ a: (key: String, value: JSONValue), _ b: (key: String, value: JSONValue)) -> Int {
        if order != .key {
            let byValue = DatabaseOrdering.compareValues(orderValue(of: a.value), orderValue(of: b.value))
            if byValue != 0 { return byValue }
        }
        return DatabaseOrdering.compareKeys(a.key, b.key)
    }

    /// Compares a child with a bound on the ordered quantity alone (the key for `$key`).
    private func compare(_ item: (key: String, value: JSONValue), bound: JSONValue) -> Int {
        switch order {
        case .key: DatabaseOrdering.compareKeys(item.key, bound.stringValue ?? "")
        case .priority: DatabaseOrdering.compareValues(.null, bound)
        case .value, .child: DatabaseOrdering.compareValues(orderValue(of: item.value), bound)
        }
    }

    private func isWithinBounds(_ item: (key: String, value: JSONValue)) -> Bool {
        if let startAt, compare(item, bound: startAt) < 0 { return false }
        if let startAfter, compare(item, bound: startAfter) <= 0 { return false }
        if let endAt, compare(item, bound: endAt) > 0 { return false }
        if let endBefore, compare(item, bound: endBefore) >= 0 { return false }
        return true
    }

    private static func parse(_ raw: String) -> JSONValue? { try? JSONCoding.parse(raw) }
}
