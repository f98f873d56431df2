import SesameLocalAPI

/// The methods and operators of the rule language, on evaluated values.
enum RuleMethods {
    static func call(_ name: String, on base: RuleValue, _ args: [RuleValue]) throws(RuleEvaluationError) -> RuleValue {
        switch base {
        case .snapshot(let tree, let path): return try snapshot(name, tree, path, args)
        case .string(let s): return try string(name, s, args)
        default: throw RuleEvaluationError()
        }
    }

    private static func snapshot(
        _ name: String, _ tree: JSONValue, _ path: [String], _ arguments: [RuleValue]
    ) throws(RuleEvaluationError) -> RuleValue {
        let value = DatabaseValue.child(of: tree, at: path)
        switch (name, arguments.count) {
        case ("val", 0): return RuleValue(json: value)
        case ("exists", 0): return .bool(!value.isNull)
        case ("isString", 0): return .bool(value.stringValue != nil)
        case ("isBoolean", 0): return .bool(value.boolValue != nil)
        case ("isNumber", 0): return .bool(value.doubleValue != nil)
        case ("child", 1):
            return .snapshot(tree: tree, path: path + (try keys(arguments[0])))
        case ("parent", 0):
            guard !path.isEmpty else { return .null }
            return .snapshot(tree: tree, path: Array(path.dropLast()))
        case ("hasChild", 1):
            return .bool(!DatabaseValue.child(of: tree, at: path + (try keys(arguments[0]))).isNull)
        case ("hasChildren", 0):
            return .bool(value.objectValue.map { !$0.isEmpty } ?? false)
        case ("hasChildren", 1):
            guard case .array(let names) = arguments[0] else { throw RuleEvaluationError() }
            guard let children = value.objectValue else { return .bool(false) }
            for name in names {
                guard case .string(let key) = name else { throw RuleEvaluationError() }
                if children[key] == nil { return .bool(false) }
            }
            return .bool(true)
        default: throw RuleEvaluationError()
        }
    }

    /// A relative path argument (`'a/b'`) as keys.
    private static func keys(_ argument: RuleValue) throws(RuleEvaluationError) -> [String] {
        guard case .string(let relative) = argument else { throw RuleEvaluationError() }
        return relative.split(separator: "/").map(String.init)
    }

    private static func string(
        _ name: String, _ s: String, _ args: [RuleValue]
    ) throws(RuleEvaluationError) -> RuleValue {
        switch (name, args.count, args.first, args.dropFirst().first) {
        case ("toLowerCase", 0, _, _): return .string(s.lowercased())
        case ("toUpperCase", 0, _, _): return .string(s.uppercased())
        case ("matches", 1, .regex(let regex)?, _): return .bool(regex.matches(s))
        case ("replace", 2, .string(let old)?, .string(let new)?):
            return .string(old.isEmpty ? s : s.replacing(old, with: new))
        case ("contains", 1, .string(let other)?, _): return .bool(s.contains(other))
        case ("beginsWith", 1, .string(let other)?, _): return .bool(s.hasPrefix(other))
        case ("endsWith", 1, .string(let other)?, _): return .bool(s.hasSuffix(other))
        default: throw RuleEvaluationError()
        }
    }

    static func binary(_ op: String, _ left: RuleValue, _ right: RuleValue) throws(RuleEvaluationError) -> RuleValue {
        switch (op, left, right) {
        case ("===", _, _): return .bool(try same(left, right))
        case ("!==", _, _): return .bool(!(try same(left, right)))
        case ("+", .string(let l), .string(let r)): return .string(l + r)
        case ("+", .string(let l), .number(let r)): return .string(l + format(r))
        case ("+", .number(let l), .string(let r)): return .string(format(l) + r)
        case (_, .number(let l), .number(let r)):
            switch op {
            case "+": return .number(l + r)
            case "-": return .number(l - r)
            case "*": return .number(l * r)
            case "/": return .number(l / r)
            case "%": return .number(l.truncatingRemainder(dividingBy: r))
            default: return .bool(compare(op, l, r))
            }
        case (_, .string(let l), .string(let r)):
            return .bool(compare(op, l, r))
        default: throw RuleEvaluationError()
        }
    }

    private static func compare<T: Comparable>(_ op: String, _ l: T, _ r: T) -> Bool {
        switch op {
        case "<": l < r
        case "<=": l <= r
        case ">": l > r
        default: l >= r
        }
    }

    /// Equality of primitives; comparing a snapshot or an object is an error in RTDB.
    private static func same(_ left: RuleValue, _ right: RuleValue) throws(RuleEvaluationError) -> Bool {
        switch (left, right) {
        case (.snapshot, _), (_, .snapshot), (.array, _), (_, .array), (.regex, _), (_, .regex):
            throw RuleEvaluationError()
        case (.object, .null), (.null, .object): return false
        case (.object(let l), .object(let r)): return l == r
        default: return left == right
        }
    }

    private static func format(_ n: Double) -> String {
        n.rounded() == n && abs(n) < 1e15 ? String(Int64(n)) : String(n)
    }
}
