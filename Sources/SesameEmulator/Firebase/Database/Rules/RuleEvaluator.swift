import SesameLocalAPI

/// Evaluates ``RuleExpression``s for one rule location: the variables in scope and the trees.
struct RuleEvaluator: Sendable {
    /// `auth`: `.null` when the request is unauthenticated.
    var auth: JSONValue
    /// The tree before the operation (`root`, `data`).
    var before: JSONValue
    /// The tree as the write would leave it (`newData`); `before` for reads.
    var after: JSONValue
    var path: [String]
    /// The `$` variables captured by the wildcards on the way to ``path``.
    var variables: [String: String]
    /// `now`: milliseconds since 1970.
    var now: Int

    /// Whether the rule grants: true only when it evaluates to `true` (errors and non-booleans
    /// refuse, as in RTDB).
    func grants(_ expression: RuleExpression) -> Bool { (try? evaluate(expression)) == .bool(true) }

    func evaluate(_ expression: RuleExpression) throws(RuleEvaluationError) -> RuleValue {
        switch expression {
        case .literal(let value): return value
        case .variable(let name): return variable(name)
        case .member(let base, let name): return try member(try evaluate(base), name)
        case .call(let base, let name, let arguments):
            return try RuleMethods.call(name, on: try evaluate(base), try arguments.map(evaluate))
        case .array(let elements): return .array(try elements.map(evaluate))
        case .not(let inner): return .bool(!(try bool(inner)))
        case .negate(let inner):
            guard case .number(let n) = try evaluate(inner) else { throw RuleEvaluationError() }
            return .number(-n)
        case .conditional(let condition, let then, let otherwise):
            return try evaluate(try bool(condition) ? then : otherwise)
        // Short-circuits: the right side is only evaluated (and type-checked) when it decides.
        case .binary("&&", let left, let right): return .bool(try bool(left) ? try bool(right) : false)
        case .binary("||", let left, let right): return .bool(try bool(left) ? true : try bool(right))
        case .binary(let op, let left, let right):
            return try RuleMethods.binary(op, try evaluate(left), try evaluate(right))
        }
    }

    /// An operand that must be a boolean.
    private func bool(_ expression: RuleExpression) throws(RuleEvaluationError) -> Bool {
        guard case .bool(let b) = try evaluate(expression) else { throw RuleEvaluationError() }
        return b
    }

    private func variable(_ name: String) -> RuleValue {
        switch name {
        case "auth": RuleValue(json: auth)
        case "data": .snapshot(tree: before, path: path)
        case "newData": .snapshot(tree: after, path: path)
        case "root": .snapshot(tree: before, path: [])
        case "now": .number(Double(now))
        default: variables[name].map(RuleValue.string) ?? .null
        }
    }

    /// `base.name` without a call: `length` of a string, a field of an object (`auth.uid`).
    private func member(_ base: RuleValue, _ name: String) throws(RuleEvaluationError) -> RuleValue {
        switch base {
        case .string(let s) where name == "length": return .number(Double(s.count))
        case .object(let o): return o[name].map(RuleValue.init(json:)) ?? .null
        default: throw RuleEvaluationError()
        }
    }
}
