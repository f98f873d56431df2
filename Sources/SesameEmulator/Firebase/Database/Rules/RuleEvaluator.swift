import SesameLocalAPI

/// Evaluates ``RuleExpression``s for one rule location: the variables in scope and the trees.
struct RuleEvaluator: Sendable {
    /// `auth`: `.null` when the request is unauthenticated.
    var auth: JSONValue
    /// The tree before the operation (`root`, `data`).
    var before: JSONValue
    /// The tree as the write would leave it (`newData`); `before` for reads.
    var after: JSONValue
    /// The rule's location.
    var path: [String]
    /// The `$` variables captured by the wildcards on the way to ``path``.
    var variables: [String: String]
    /// `now`: milliseconds since 1970.
    var now: Int

    /// Whether the rule grants: true only when it evaluates to `true` (errors and non-booleans
    /// refuse, as in RTDB).
    func grants(_ expression: RuleExpression) -> Bool {
        (try? evaluate(expression)) == .bool(true)
    }

    func evaluate(_ expression: RuleExpression) throws(RuleEvaluationError) -> RuleValue {
        switch expression {
        case .literal(let literal): return RuleValue(literal)
        case .variable(let name): return variable(name)
        case .member(let base, let name): return try member(try evaluate(base), name)
        case .call(let base, let name, let arguments):
            var values: [RuleValue] = []
            for argument in arguments { values.append(try evaluate(argument)) }
            return try RuleMethods.call(name, on: try evaluate(base), values)
        case .array(let elements):
            var values: [RuleValue] = []
            for element in elements { values.append(try evaluate(element)) }
            return .array(values)
        case .not(let inner):
            guard case .bool(let b) = try evaluate(inner) else { throw RuleEvaluationError() }
            return .bool(!b)
        case .negate(let inner):
            guard case .number(let n) = try evaluate(inner) else { throw RuleEvaluationError() }
            return .number(-n)
        case .conditional(let condition, let then, let otherwise):
            guard case .bool(let b) = try evaluate(condition) else { throw RuleEvaluationError() }
            return try evaluate(b ? then : otherwise)
        case .binary("&&", let left, let right):
            guard case .bool(let l) = try evaluate(left) else { throw RuleEvaluationError() }
            if !l { return .bool(false) }
            guard case .bool(let r) = try evaluate(right) else { throw RuleEvaluationError() }
            return .bool(r)
        case .binary("||", let left, let right):
            guard case .bool(let l) = try evaluate(left) else { throw RuleEvaluationError() }
            if l { return .bool(true) }
            guard case .bool(let r) = try evaluate(right) else { throw RuleEvaluationError() }
            return .bool(r)
        case .binary(let op, let left, let right):
            return try RuleMethods.binary(op, try evaluate(left), try evaluate(right))
        }
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
