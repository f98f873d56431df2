import SesameLocalAPI
import Testing

@testable import SesameEmulator

/// Regular expressions (`matches()`) and `replace()` in rules, with the examples and limits of
/// RTDB's "Regular expressions" reference: what is accepted, what matches, what is refused when
/// the rules are saved.
@Suite("Security rules: regular expressions and replace()")
struct SecurityRulesRegexTests {
    static let evaluator = RuleEvaluator(
        auth: .null, before: .null, after: .null, path: [], variables: ["$key": "Ann.Lee"], now: 0)

    static func value(_ text: String) throws -> RuleValue? {
        try? evaluator.evaluate(RuleExpression.parse(text, wildcards: ["$key"]))
    }

    @Test(
        "the reference's examples match as it says",
        arguments: [
            ("'ba'.matches(/a/)", true), ("'ba'.matches(/^a/)", false), ("'ab'.matches(/a$/)", false),
            ("''.matches(/^a*$/)", true), ("'aaa'.matches(/^a*$/)", true), ("'b'.matches(/^a*$/)", false),
            ("''.matches(/^a+$/)", false), ("'aa'.matches(/^a?$/)", false), ("'Firebase'.matches(/......../)", true),
            ("'abab'.matches(/(ab)*/)", true), ("'bc'.matches(/a|bc/)", true), ("'G'.matches(/[ABCDEF]/)", false),
            ("'09AF'.matches(/^[0-9A-F]+$/)", true), ("'x'.matches(/[^0-9]/)", true), ("'YES'.matches(/yes/i)", true),
            ("'YES'.matches(/yes/)", false), ("'a b'.matches(/\\s/)", true), ("'é'.matches(/^\\w$/)", false),
            (
                "'2026-11-26'.matches(/^(19|20)[0-9][0-9][-\\/. ](0[1-9]|1[012])[-\\/. ](0[1-9]|[12][0-9]|3[01])$/)",
                true
            ),
            ("'Ann@Example.COM'.matches(/^[A-Z0-9._%+-]+@[A-Z0-9.-]+\\.[A-Z]{2,4}$/i)", true),
            ("$key.matches(/^[a-z.]+$/i) && 10 / 2 == 5", true),
        ])
    func referenceExamples(expression: String, expected: Bool) throws {
        #expect(try Self.value(expression) == .bool(expected), "\(expression)")
    }

    @Test("replace() replaces every occurrence; a regex is only an argument of matches()")
    func replaceAndMisuse() throws {
        #expect(try Self.value("$key.replace('.', ',')") == .string("Ann,Lee"))
        #expect(try Self.value("'a.b.c'.replace('.', '')") == .string("abc"))
        #expect(try Self.value("'abc'.matches('b')") == nil)
        #expect(try Self.value("/a/ == /a/") == nil)
    }

    @Test(
        "what the reference does not list is refused when the rules are saved",
        arguments: [
            "newData.val().matches(/a/g)", "newData.val().matches(/a^b/)", "newData.val().matches(/a$b/)",
            "newData.val().matches(/(?=a)/)", "newData.val().matches(/\\bword/)", "newData.val().matches(/(a)\\1/)",
            "newData.val().matches(/[a-/)", "newData.val().matches(/unterminated)",
        ])
    func refusedAtUpload(expression: String) {
        #expect(throws: SecurityRulesError.self, "\(expression)") {
            try SecurityRules.parse(["rules": [".validate": .string(expression), ".write": true]])
        }
    }

    @Test("a rule with matches() guards writes: a username key of letters, digits and _")
    func guardsWrites() throws {
        let rules = try SecurityRules.parse([
            "rules": ["names": ["$name": [".write": true, ".validate": "$name.matches(/^[a-z0-9_]{3,20}$/)"]]]
        ])
        func allowed(_ name: String) throws -> Bool {
            let path = try DatabasePath(urlPath: "/names/\(name)")
            return rules.canWrite([path], before: .null, after: ["names": [name: true]], auth: .null, now: 0)
        }
        #expect(try allowed("nasa_fan"))
        #expect(try !allowed("no"))
        #expect(try !allowed("Upper"))
        #expect(try !allowed("has-dash"))
    }
}
