import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import SesameCore
import SesameEmulatorTesting
import SesameLocalAPI
import Testing

@testable import SesameEmulator

/// Security rules enforced by the database port, and the rules docs/usernames.md asks projects
/// to deploy, read from the page itself so the docs are what is tested.
@Suite("Realtime Database security rules")
struct DatabaseRulesTests {
    /// The JSON block of docs/usernames.md's "Security rules" section.
    static func documentedRules() throws -> JSONValue {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("docs/usernames.md"), encoding: .utf8)
        let section = try #require(page.range(of: "## Security rules"))
        let open = try #require(page.range(of: "```json\n", range: section.upperBound..<page.endIndex))
        let close = try #require(page.range(of: "```", range: open.upperBound..<page.endIndex))
        return try JSONCoding.parse(Array(page[open.upperBound..<close.lowerBound].utf8))
    }

    static let owner = [("Authorization", "Bearer owner")]

    static func upload(_ emu: TestEmulator, _ rules: JSONValue) async throws -> HTTPAnswer {
        try await emu.database("PUT", "/.settings/rules.json", rules, headers: owner)
    }

    /// A signed-up user's uid and ID token.
    static func user(_ emu: TestEmulator, _ email: String) async throws -> (uid: String, token: String) {
        let fields = try await emu.signUp(email: email)
        return (try #require(fields["localId"]?.stringValue), try #require(fields["idToken"]?.stringValue))
    }

    static func query(_ token: String?) -> String {
        "ns=test" + (token.map { "&auth=\(PercentEncoding.queryValue($0))" } ?? "")
    }

    @Test func documentedRulesKeepUsernamesToTheirOwners() async throws {
        try await TestEmulator.with { emu in
            #expect(try await Self.upload(emu, Self.documentedRules()).status == 200)
            let alice = try await Self.user(emu, "alice@example.com")
            let bob = try await Self.user(emu, "bob@example.com")
            func put(_ path: String, _ value: JSONValue, as token: String?, ifMatch: String? = nil) async throws -> Int
            {
                let headers = ifMatch.map { [("if-match", $0)] } ?? []
                return try await emu.database("PUT", path, value, query: Self.query(token), headers: headers).status
            }
            let name = "/users/usernames/alice.json"
            #expect(try await put(name, .string(alice.uid), as: nil) == 401)
            #expect(try await put(name, .string(alice.uid), as: bob.token) == 401)
            #expect(try await put(name, .string(alice.uid), as: alice.token, ifMatch: "null_etag") == 200)
            // Taken: refused by the rules before `if-match` is looked at, as RTDB does.
            let claim = try await emu.database(
                "PUT", name, .string(bob.uid), query: Self.query(bob.token), headers: [("if-match", "null_etag")])
            #expect(claim.status == 401)
            #expect(claim.json == ["error": "Permission denied"])
            #expect(try await put(name, .string(alice.uid), as: bob.token) == 401)
            #expect(try await emu.database("DELETE", name, query: Self.query(bob.token)).status == 401)
            #expect(try await emu.database("GET", name).json == .string(alice.uid))
            // Values and keys the rules refuse even for one's own uid.
            #expect(try await put("/users/usernames/admin.json", .string(bob.uid), as: bob.token) == 401)
            #expect(try await put("/users/usernames/b@b.json", .string(bob.uid), as: bob.token) == 401)
            #expect(try await put("/users/usernames/bobby.json", ["uid": .string(bob.uid)], as: bob.token) == 401)
            #expect(try await put("/users/usernames/bobby.json", .string(bob.uid), as: bob.token) == 200)
            // The owner releases their own name.
            #expect(try await emu.database("DELETE", name, query: Self.query(alice.token)).status == 200)
            #expect(try await emu.database("GET", name).json == .null)
        }
    }

    @Test func documentedRulesAllowSingleReadsAndOwnDetailsOnly() async throws {
        try await TestEmulator.with { emu in
            #expect(try await Self.upload(emu, Self.documentedRules()).status == 200)
            let alice = try await Self.user(emu, "alice@example.com")
            let bob = try await Self.user(emu, "bob@example.com")
            let details = "/users/details/\(alice.uid).json"
            let good: JSONValue = ["username": "alice", "email": "alice@example.com"]
            let q = Self.query(alice.token)
            #expect(try await emu.database("PUT", details, good, query: Self.query(bob.token)).status == 401)
            #expect(try await emu.database("PUT", details, ["email": "a@example.com"], query: q).status == 401)
            #expect(try await emu.database("PUT", details, ["username": "alice", "x": 1], query: q).status == 401)
            #expect(try await emu.database("PUT", details, ["username": "al"], query: q).status == 401)
            #expect(try await emu.database("PUT", details, good, query: q).status == 200)
            #expect(try await emu.database("PATCH", details, ["email": "new@example.com"], query: q).status == 200)
            _ = try await emu.database("PUT", "/users/usernames/alice.json", .string(alice.uid), query: q)
            // Anyone reads single entries; nobody lists the directory.
            #expect(try await emu.database("GET", details).json["email"] == "new@example.com")
            #expect(try await emu.database("GET", "/users/usernames/alice.json").json == .string(alice.uid))
            for listing in ["/users/usernames.json", "/users/details.json", "/users.json", "/.json"] {
                let answer = try await emu.database("GET", listing, query: q)
                #expect(answer.status == 401, "\(listing)")
                #expect(answer.json == ["error": "Permission denied"])
            }
            // A multi-location PATCH is all or nothing.
            let patch = try await emu.database(
                "PATCH", "/users.json", ["usernames/carol": .string(bob.uid), "usernames/dave": .string(alice.uid)],
                query: Self.query(bob.token))
            #expect(patch.status == 401)
            #expect(try await emu.database("GET", "/users/usernames/carol.json").json == .null)
            // Release is the only deletion of details allowed, by the owner.
            #expect(try await emu.database("DELETE", details, query: Self.query(bob.token)).status == 401)
            #expect(try await emu.database("DELETE", details, query: q).status == 200)
        }
    }

    @Test func identitiesOverrideOwnerAndInvalidTokens() async throws {
        try await TestEmulator.with { emu in
            let rules: JSONValue = [
                "rules": ["u": ["$uid": [".read": "auth.uid === $uid", ".write": "auth.uid === $uid"]]]
            ]
            #expect(try await Self.upload(emu, rules).status == 200)
            #expect(try await emu.database("GET", "/.settings/rules.json").json == rules)
            let override = PercentEncoding.queryValue(#"{"uid":"alice"}"#)
            let asAlice = "ns=test&auth_variable_override=\(override)"
            #expect(
                try await emu.database("PUT", "/u/alice.json", 1, query: asAlice, headers: Self.owner).status == 200)
            #expect(try await emu.database("PUT", "/u/bob.json", 1, query: asAlice, headers: Self.owner).status == 401)
            let asNobody = "ns=test&auth_variable_override=null"
            #expect(try await emu.database("GET", "/u/alice.json", query: asNobody, headers: Self.owner).status == 401)
            #expect(try await emu.database("PUT", "/u/bob.json", 2, headers: Self.owner).status == 200)
            #expect(try await emu.database("PUT", "/u/bob.json", 2, query: "ns=test&access_token=owner").status == 200)
            let garbage = try await emu.database("GET", "/u/alice.json", query: "ns=test&auth=garbage")
            #expect(garbage.status == 401)
            #expect(garbage.json == ["error": "Could not parse auth token."])
            let bearer = try await Self.user(emu, "bearer@example.com")
            let own = "/u/\(bearer.uid).json"
            #expect(
                try await emu.database("PUT", own, 3, headers: [("Authorization", "Bearer \(bearer.token)")]).status
                    == 200)
            emu.time.advance(seconds: 3601)
            let expired = try await emu.database("GET", own, query: Self.query(bearer.token))
            #expect(expired.json == ["error": "Auth token is expired"])
        }
    }

    @Test func unsupportedRulesAreRefusedAndTheOldRulesKept() async throws {
        try await TestEmulator.with { emu in
            #expect(try await emu.database("PUT", "/a.json", 1).status == 200)
            let answer = try await Self.upload(emu, ["rules": [".read": "data.foo()"]])
            #expect(answer.status == 400)
            #expect(answer.json["error"]?.stringValue?.contains("Error saving rules - /rules/.read") == true)
            #expect(try await emu.database("PUT", "/a.json", 2).status == 200)
        }
    }

    @Test func streamsNeedReadPermissionAndAreCancelledWhenItIsLost() async throws {
        try await TestEmulator.with { emu in
            let rules: JSONValue = ["rules": ["room": [".read": "root.child('open').val() === true"]]]
            #expect(try await Self.upload(emu, rules).status == 200)
            let (refused, _) = try await DatabaseStreamingTests.open(emu, "/room.json")
            #expect(refused.status == .unauthorized)
            _ = try await emu.database("PUT", "/open.json", true, headers: Self.owner)
            let (response, events) = try await DatabaseStreamingTests.open(emu, "/room.json")
            var stream = events
            #expect(response.status == .ok)
            #expect(try await stream.next()?.event == "put")
            _ = try await emu.database("PUT", "/open.json", false, headers: Self.owner)
            let cancel = try #require(try await stream.next())
            #expect(cancel.event == "cancel")
            #expect(try await stream.next() == nil)
        }
    }

    /// firebase-admin-python's integration/test_db.py `test_listen`: with rules uploaded, the
    /// owner's stream (what the Admin SDKs open) sees a push below it as a `put` at the child's
    /// path, and is never cancelled: the owner skips the rules.
    @Test func theOwnersStreamOutlivesWritesUnderRules() async throws {
        try await TestEmulator.with { emu in
            #expect(try await Self.upload(emu, ["rules": [".read": false, ".write": false]]).status == 200)
            var request = HTTPClientRequest(url: "\(emu.databaseBase)/python.json?ns=test")
            request.headers.add(name: "Accept", value: "text/event-stream")
            request.headers.add(name: "Authorization", value: "Bearer owner")
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
            #expect(response.status == .ok)
            var stream = ServerSentEvents(iterator: response.body.makeAsyncIterator())
            #expect(try await stream.next()?.data == ["path": "/", "data": nil])
            let pushed = try await emu.database("POST", "/python/users.json", "", headers: Self.owner)
            let key = try #require(pushed.json["name"]?.stringValue)
            let event = try #require(try await stream.next())
            #expect(event.event == "put")
            #expect(event.data == ["path": .string("/users/\(key)"), "data": ""])
        }
    }
}
