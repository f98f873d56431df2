/// A parsed security-rule expression (the subset of RTDB's rule language the emulator
/// enforces; docs/emulator.md lists it).
indirect enum RuleExpression: Sendable, Equatable {
    /// `true`, `false`, `null`, a number, a string or a regex.
    case literal(RuleValue)
    /// `auth`, `data`, `newData`, `root`, `now` or a `$variable` captured by a wildcard.
    case variable(String)
    /// `base.name` (`auth.uid`, `'abc'.length`).
    case member(RuleExpression, String)
    /// `base.name(arguments)` (`data.child('uid')`, `$key.contains('@')`).
    case call(RuleExpression, String, [RuleExpression])
    /// `['a', 'b']` (the argument of `hasChildren`).
    case array([RuleExpression])
    case not(RuleExpression)
    case negate(RuleExpression)
    case binary(String, RuleExpression, RuleExpression)
    case conditional(RuleExpression, RuleExpression, RuleExpression)

    /// The variables every rule may use, besides the `$` variables of its wildcards.
    static let builtins: Set<String> = ["auth", "data", "newData", "root", "now"]
    /// The methods the evaluator implements (snapshot and string methods).
    static let methods: Set<String> = [
        "val", "exists", "child", "parent", "hasChild", "hasChildren", "isString", "isNumber", "isBoolean",
        "contains", "beginsWith", "endsWith", "toLowerCase", "toUpperCase", "matches", "replace",
    ]

    /// Parses an expression, refusing variables not in `builtins` or `wildcards` and unknown
    /// methods, as RTDB refuses them when rules are saved.
    static func parse(_ text: String, wildcards: Set<String>) throws(SecurityRulesError) -> RuleExpression {
        var parser = RuleParser(tokens: try RuleToken.tokenize(text), wildcards: wildcards)
        let expression = try parser.expression()
        guard parser.atEnd else { throw SecurityRulesError("Unexpected token after the expression.") }
        return expression
    }
}
