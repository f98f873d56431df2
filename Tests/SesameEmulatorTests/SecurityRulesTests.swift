import SesameLocalAPI
import Testing

@testable import SesameEmulator

/// The rule parser and evaluator as pure values: RTDB's cascade, validation and refusals.
@Suite("Security rules (parser and evaluator)")
struct SecurityRulesTests {
    static func rules(_ document: JSONValue) throws -> SecurityRules {
        try SecurityRules.parse(["rules": document])
    }

    static let alice: JSONValue = ["uid": "alice", "token": ["email": "a@example.com"]]

    @Test func unknownVariablesMethodsAndKeysAreRefusedAtUpload() {
        let bad: [JSONValue] = [
            [".read": "foo == 1"], [".read": "data.getPriority() == null"], [".write": "auth.uid ==="],
            [".read": 3], [".reed": true], ["a": [".read": "$key == 'x'"]], ["$a": [:], "$b": [:]],
            [".read": "'unterminated"],
        ]
        for document in bad {
            #expect(throws: SecurityRulesError.self, "\(document.jsonString)") { try Self.rules(document) }
        }
        #expect(throws: SecurityRulesError.self) { try SecurityRules.parse([".read": true]) }
    }

    @Test func readGrantsCascadeAndDeeperRulesCannotRevoke() throws {
        let rules = try Self.rules(["a": [".read": true, "b": [".read": false]], "c": ["d": [".read": true]]])
        let tree: JSONValue = ["a": ["b": 1], "c": ["d": 2]]
        #expect(rules.canRead(try DatabasePath(urlPath: "/a/b"), tree: tree, auth: .null, now: 0))
        #expect(rules.canRead(try DatabasePath(urlPath: "/c/d"), tree: tree, auth: .null, now: 0))
        #expect(!rules.canRead(try DatabasePath(urlPath: "/c"), tree: tree, auth: .null, now: 0))
        #expect(!rules.canRead(.root, tree: tree, auth: .null, now: 0))
    }

    @Test func wildcardsBindVariablesAndAuthFieldsAreReadable() throws {
        let rules = try Self.rules([
            "users": ["$uid": [".write": "auth != null && auth.uid === $uid && auth.token.email.endsWith('.com')"]]
        ])
        let path = try DatabasePath(urlPath: "/users/alice")
        #expect(rules.canWrite([path], before: .null, after: ["users": ["alice": 1]], auth: Self.alice, now: 0))
        let other = try DatabasePath(urlPath: "/users/bob")
        #expect(!rules.canWrite([other], before: .null, after: ["users": ["bob": 1]], auth: Self.alice, now: 0))
        #expect(!rules.canWrite([path], before: .null, after: ["users": ["alice": 1]], auth: .null, now: 0))
    }

    @Test func validateRunsOnEveryNewNodeAndSkipsDeletions() throws {
        let rules = try Self.rules([
            ".write": true,
            "p": [
                ".validate": "newData.hasChildren(['name'])",
                "name": [".validate": "newData.isString() && newData.val().length <= 3"],
                "age": [".validate": "newData.isNumber() && newData.val() >= 0"],
                "$other": [".validate": false],
            ],
        ])
        let p = try DatabasePath(urlPath: "/p")
        func allowed(_ value: JSONValue) -> Bool {
            rules.canWrite([p], before: .null, after: ["p": value], auth: .null, now: 0)
        }
        #expect(allowed(["name": "bob", "age": 3]))
        #expect(!allowed(["name": "bobby"]))
        #expect(!allowed(["age": 3]))
        #expect(!allowed(["name": "bob", "age": -1]))
        #expect(!allowed(["name": "bob", "x": true]))
        #expect(rules.canWrite([p], before: ["p": ["name": "bob"]], after: .null, auth: .null, now: 0))
        // A child's write runs the parent's `.validate` on the parent's new value.
        let age = try DatabasePath(urlPath: "/p/age")
        #expect(!rules.canWrite([age], before: .null, after: ["p": ["age": 1]], auth: .null, now: 0))
        #expect(rules.canWrite([age], before: .null, after: ["p": ["name": "a", "age": 1]], auth: .null, now: 0))
    }

    @Test func multiLocationWritesNeedEveryLocationGranted() throws {
        let rules = try Self.rules(["open": [".write": true], "shut": [".write": false]])
        let after: JSONValue = ["open": 1, "shut": 2]
        let locations = [try DatabasePath(urlPath: "/open"), try DatabasePath(urlPath: "/shut")]
        #expect(!rules.canWrite(locations, before: .null, after: after, auth: .null, now: 0))
        #expect(rules.canWrite([locations[0]], before: .null, after: after, auth: .null, now: 0))
    }

    @Test func expressionsFollowRTDBTypesAndPrecedence() throws {
        let evaluator = RuleEvaluator(
            auth: Self.alice, before: ["a": ["b": "x"]], after: ["a": ["b": "y"]], path: ["a"],
            variables: ["$k": "key"],
            now: 1000)
        func value(_ text: String) throws -> RuleValue? {
            try? evaluator.evaluate(RuleExpression.parse(text, wildcards: ["$k"]))
        }
        #expect(try value("1 + 2 * 3 === 7") == .bool(true))
        #expect(try value("!false && (true || false) ? 'y' : 'n'") == .string("y"))
        #expect(try value("data.child('b').val() == 'x' && newData.child('b').val() != 'x'") == .bool(true))
        #expect(try value("data.child('b').parent().parent().exists()") == .bool(true))
        #expect(try value("root.hasChild('a/b') && data.hasChildren()") == .bool(true))
        #expect(try value("$k.length == 3 && $k.beginsWith('k') && $k.toUpperCase() == 'KEY'") == .bool(true))
        #expect(try value("now > 999 && auth.missing == null") == .bool(true))
        #expect(try value("data == 1") == nil)
        #expect(try value("'a' < 1") == nil)
        #expect(try value("'a' + 1") == .string("a1"))
    }
}
