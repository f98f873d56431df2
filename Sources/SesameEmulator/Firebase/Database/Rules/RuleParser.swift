/// Recursive-descent parser for ``RuleExpression``, with JavaScript's precedence:
/// `?:` < `||` < `&&` < equality < relational < `+ -` < `* / %` < unary < member/call.
struct RuleParser {
    let tokens: [RuleToken]
    let wildcards: Set<String>
    private(set) var position = 0

    var atEnd: Bool { position == tokens.count }

    private var next: RuleToken? { position < tokens.count ? tokens[position] : nil }

    private mutating func take(_ symbol: String) -> Bool {
        guard next == .symbol(symbol) else { return false }
        position += 1
        return true
    }

    private mutating func expect(_ symbol: String) throws(SecurityRulesError) {
        guard take(symbol) else { throw SecurityRulesError("Expected '\(symbol)'.") }
    }

    mutating func expression() throws(SecurityRulesError) -> RuleExpression {
        let condition = try binary(level: 0)
        guard take("?") else { return condition }
        let then = try expression()
        try expect(":")
        return .conditional(condition, then, try expression())
    }

    private static let levels: [[String]] = [
        ["||"], ["&&"], ["==", "===", "!=", "!=="], ["<", "<=", ">", ">="], ["+", "-"], ["*", "/", "%"],
    ]

    private mutating func binary(level: Int) throws(SecurityRulesError) -> RuleExpression {
        guard level < Self.levels.count else { return try unary() }
        var left = try binary(level: level + 1)
        while case .symbol(let symbol)? = next, Self.levels[level].contains(symbol) {
            position += 1
            let right = try binary(level: level + 1)
            // `==` is `===` in rules (no coercion); one spelling keeps evaluation simple.
            let op = symbol == "==" ? "===" : symbol == "!=" ? "!==" : symbol
            left = .binary(op, left, right)
        }
        return left
    }

    private mutating func unary() throws(SecurityRulesError) -> RuleExpression {
        if take("!") { return .not(try unary()) }
        if take("-") { return .negate(try unary()) }
        return try postfix()
    }

    private mutating func postfix() throws(SecurityRulesError) -> RuleExpression {
        var base = try primary()
        while take(".") {
            guard case .identifier(let name)? = next else { throw SecurityRulesError("Expected a name after '.'.") }
            position += 1
            if take("(") {
                guard RuleExpression.methods.contains(name) else {
                    throw SecurityRulesError("No such method/property '\(name)'.")
                }
                base = .call(base, name, try list(until: ")"))
            } else {
                base = .member(base, name)
            }
        }
        return base
    }

    private mutating func primary() throws(SecurityRulesError) -> RuleExpression {
        guard let token = next else { throw SecurityRulesError("Unexpected end of expression.") }
        position += 1
        switch token {
        case .string(let s): return .literal(.string(s))
        case .regex(let r): return .literal(.regex(r))
        case .number(let n): return .literal(.number(n))
        case .identifier("true"): return .literal(.bool(true))
        case .identifier("false"): return .literal(.bool(false))
        case .identifier("null"): return .literal(.null)
        case .identifier(let name):
            guard RuleExpression.builtins.contains(name) || wildcards.contains(name) else {
                throw SecurityRulesError("Unknown variable '\(name)'.")
            }
            return .variable(name)
        case .symbol("("):
            let inner = try expression()
            try expect(")")
            return inner
        case .symbol("["): return .array(try list(until: "]"))
        case .symbol(let s): throw SecurityRulesError("Unexpected '\(s)'.")
        }
    }

    /// Comma-separated expressions, then the closing `symbol`.
    private mutating func list(until symbol: String) throws(SecurityRulesError) -> [RuleExpression] {
        var items: [RuleExpression] = []
        if take(symbol) { return items }
        repeat { items.append(try expression()) } while take(",")
        try expect(symbol)
        return items
    }
}
