/// A regular-expression literal of a rule (`/^[a-z0-9_]+$/i`), the argument of a string's
/// `matches()`. RTDB accepts a subset of the usual syntax (its "Regular expressions" reference):
/// `\s \w \d \S \W \D`, `\` before a character to take it literally, `^` only as the first
/// character and `$` only as the last, `* + ? .`, groups, `|`, sets and ranges (`[^…]` too),
/// `{}` counts, and the `i` flag alone. Anything else is refused when the rules are saved. A
/// match is found anywhere in the string unless anchored (`/a/` matches "ba").
struct RuleRegex: Sendable, Equatable {
    let pattern: String
    let ignoresCase: Bool

    /// - Throws: ``SecurityRulesError`` for a flag other than `i`, an anchor inside the
    ///   pattern, an escape other than the six classes or of a non-letter, `(?…)`, or a pattern
    ///   that does not compile.
    init(pattern: String, flags: String) throws(SecurityRulesError) {
        guard flags.isEmpty || flags == "i" else {
            throw SecurityRulesError("Invalid regular expression flags '\(flags)': only i is supported.")
        }
        try Self.check(Array(pattern.unicodeScalars))
        do {
            _ = try Regex(pattern)
        } catch {
            throw SecurityRulesError("Invalid regular expression /\(pattern)/.")
        }
        self.pattern = pattern
        self.ignoresCase = flags == "i"
    }

    private static func check(_ scalars: [Unicode.Scalar]) throws(SecurityRulesError) {
        var index = 0
        var inSet = false
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\\" {
                guard index + 1 < scalars.count else { throw SecurityRulesError("A regular expression ends in \\.") }
                let escaped = scalars[index + 1]
                if escaped.properties.isAlphabetic || escaped.properties.numericType != nil,
                    !"swdSWD".unicodeScalars.contains(escaped)
                {
                    throw SecurityRulesError("Unsupported escape \\\(escaped) in a regular expression.")
                }
                index += 2
                continue
            }
            if inSet {
                if scalar == "]" { inSet = false }
            } else {
                switch scalar {
                case "[": inSet = true
                case "^" where index != 0, "$" where index != scalars.count - 1:
                    throw SecurityRulesError("\(scalar) may only start (^) or end ($) a regular expression.")
                case "(" where index + 1 < scalars.count && scalars[index + 1] == "?":
                    throw SecurityRulesError("(?…) is not supported in a regular expression.")
                default: break
                }
            }
            index += 1
        }
    }

    /// Whether `string` contains a match (the classes are ASCII, one match unit per scalar).
    func matches(_ string: String) -> Bool {
        guard let compiled = try? Regex(pattern) else { return false }
        var regex =
            compiled.asciiOnlyWordCharacters().asciiOnlyDigits().asciiOnlyWhitespace()
            .matchingSemantics(.unicodeScalar)
        if ignoresCase { regex = regex.ignoresCase() }
        return string.firstMatch(of: regex) != nil
    }
}
