/// One token of a security-rule expression.
enum RuleToken: Sendable, Equatable {
    case identifier(String)
    case string(String)
    case number(Double)
    /// `/pattern/flags`, where a value is expected (elsewhere `/` divides).
    case regex(RuleRegex)
    /// An operator or punctuation: `( ) [ ] , . ! - + * / % < > <= >= == === != !== && || ? :`.
    case symbol(String)

    /// Splits an expression into tokens.
    /// - Throws: ``SecurityRulesError`` for an unterminated string or an unknown character.
    static func tokenize(_ text: String) throws(SecurityRulesError) -> [RuleToken] {
        let chars = Array(text.unicodeScalars)
        var tokens: [RuleToken] = []
        var i = 0
        let symbols = [
            "===", "!==", "==", "!=", "<=", ">=", "&&", "||", "(", ")", "[", "]", ",", ".", "!", "-", "+",
            "*", "/", "%", "<", ">", "?", ":",
        ]
        while i < chars.count {
            let c = chars[i]
            if c.properties.isWhitespace {
                i += 1
            } else if c == "'" || c == "\"" {
                var value = ""
                i += 1
                while i < chars.count && chars[i] != c {
                    if chars[i] == "\\" && i + 1 < chars.count { i += 1 }
                    value.unicodeScalars.append(chars[i])
                    i += 1
                }
                guard i < chars.count else { throw SecurityRulesError("Unterminated string.") }
                i += 1
                tokens.append(.string(value))
            } else if c == "/", !(tokens.last?.endsOperand ?? false) {
                tokens.append(.regex(try regex(chars, from: &i)))
            } else if c.properties.numericType != nil && c.isASCII {
                let text = scan(chars, &i) { ($0.properties.numericType != nil || $0 == ".") && $0.isASCII }
                guard let number = Double(text) else { throw SecurityRulesError("Invalid number \(text).") }
                tokens.append(.number(number))
            } else if c == "$" || c == "_" || c.properties.isAlphabetic {
                let isNamePart = { (c: Unicode.Scalar) in
                    c == "$" || c == "_" || c.properties.isAlphabetic || c.properties.numericType != nil
                }
                tokens.append(.identifier(scan(chars, &i, while: isNamePart)))
            } else {
                let rest = String(String.UnicodeScalarView(chars[i...].prefix(3)))
                guard let symbol = symbols.first(where: { rest.hasPrefix($0) }) else {
                    throw SecurityRulesError("Unexpected character '\(c)'.")
                }
                tokens.append(.symbol(symbol))
                i += symbol.unicodeScalars.count
            }
        }
        return tokens
    }

    /// Whether a `/` after this token divides (it ends a value) rather than opening a regex.
    private var endsOperand: Bool {
        switch self {
        case .identifier, .string, .number, .regex: true
        case .symbol(let symbol): symbol == ")" || symbol == "]"
        }
    }

    /// The regex literal starting at the `/` at `i`; `i` ends after its flags.
    private static func regex(_ chars: [Unicode.Scalar], from i: inout Int) throws(SecurityRulesError) -> RuleRegex {
        var pattern = ""
        var inSet = false
        i += 1
        while i < chars.count, inSet || chars[i] != "/" {
            if chars[i] == "\\", i + 1 < chars.count {
                pattern.unicodeScalars.append(chars[i])
                i += 1
            } else if chars[i] == "[" {
                inSet = true
            } else if chars[i] == "]" {
                inSet = false
            }
            pattern.unicodeScalars.append(chars[i])
            i += 1
        }
        guard i < chars.count else { throw SecurityRulesError("Unterminated regular expression.") }
        i += 1
        return try RuleRegex(pattern: pattern, flags: scan(chars, &i) { $0.properties.isAlphabetic })
    }

    /// The scalars from `i` on while `belongs` holds them; `i` ends after them.
    private static func scan(
        _ chars: [Unicode.Scalar], _ i: inout Int, while belongs: (Unicode.Scalar) -> Bool
    ) -> String {
        let start = i
        while i < chars.count, belongs(chars[i]) { i += 1 }
        return String(String.UnicodeScalarView(chars[start..<i]))
    }
}

/// A rules file RTDB would refuse at upload (answered 400 with RTDB's "Error saving rules" text).
struct SecurityRulesError: Error, Sendable, Equatable {
    let message: String
    init(_ message: String) { self.message = message }

    /// The same error located at a rule (`/rules/users/$key/.write`).
    func at(_ location: String) -> SecurityRulesError { SecurityRulesError("\(location): \(message)") }
}
