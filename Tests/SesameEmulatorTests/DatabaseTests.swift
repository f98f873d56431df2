import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("Realtime Database REST subset")
struct DatabaseTests {
    @Test func putGetPatchDelete() async throws {
        try await TestEmulator.with { emu in
            let put = try await emu.database(
                "PUT", "/users/alice.json", ["name": "Alice", "age": 30, "empty": [:], "gone": nil])
            #expect(put.status == 200)
            #expect(put.json == ["name": "Alice", "age": 30])
            #expect(try await emu.database("GET", "/users/alice/name.json").json == "Alice")
            let patch = try await emu.database("PATCH", "/users.json", ["alice/age": 31, "bob": ["name": "Bob"]])
            #expect(patch.status == 200)
            #expect(patch.json == ["alice/age": 31, "bob": ["name": "Bob"]])
            #expect(
                try await emu.database("GET", "/users.json").json == [
                    "alice": ["name": "Alice", "age": 31], "bob": ["name": "Bob"],
                ])
            let shallow = try await emu.database("GET", "/users.json", query: "ns=test&shallow=true")
            #expect(shallow.json == ["alice": true, "bob": true])
            let deleted = try await emu.database("DELETE", "/users/alice.json")
            #expect(deleted.status == 200)
            #expect(deleted.json == .null)
            #expect(try await emu.database("PUT", "/users/bob/name.json", JSONValue.null).status == 200)
            #expect(try await emu.database("GET", "/users.json").json == .null)
            #expect(try await emu.database("GET", "/.json").json == .null)
        }
    }

    @Test func namespacesAreSeparateTrees() async throws {
        try await TestEmulator.with { emu in
            _ = try await emu.database("PUT", "/k.json", "one", query: "ns=one")
            _ = try await emu.database("PUT", "/k.json", "default", query: "")
            #expect(try await emu.database("GET", "/k.json", query: "ns=one").json == "one")
            #expect(try await emu.database("GET", "/k.json", query: "ns=two").json == .null)
            #expect(try await emu.database("GET", "/k.json", query: "ns=demo-project-default-rtdb").json == "default")
        }
    }

    @Test func silentWritesAuthAndArrays() async throws {
        try await TestEmulator.with { emu in
            let silent = try await emu.database(
                "PUT", "/s.json", ["a": 1], query: "ns=test&print=silent&auth=some-token")
            #expect(silent.status == 204)
            #expect(silent.bytes.isEmpty)
            let owner = try await emu.database(
                "PUT", "/list.json", [1, 2, 3], headers: [("Authorization", "Bearer owner")])
            #expect(owner.json == [1, 2, 3])
            #expect(try await emu.database("GET", "/list.json").json == [1, 2, 3])
            let pushed = try await emu.database("POST", "/messages.json", ["text": "hi"])
            let key = try #require(pushed.json["name"]?.stringValue)
            #expect(key.count == 20)
            #expect(try await emu.database("GET", "/messages/\(key)/text.json").json == "hi")
            let rules = try await emu.database(
                "PUT", "/.settings/rules.json", ["rules": [".read": true]], headers: [("Authorization", "Bearer owner")]
            )
            #expect(rules.status == 200)
        }
    }

    @Test func etagsAndConditionalWrites() async throws {
        try await TestEmulator.with { emu in
            let absent = try await emu.database("GET", "/names/bob.json", headers: [("X-Firebase-ETag", "true")])
            #expect(absent.header("etag") == "null_etag")
            #expect(try await emu.database("GET", "/names/bob.json").header("etag") == nil)
            let claimed = try await emu.database(
                "PUT", "/names/bob.json", ["uid": "u1"], headers: [("if-match", "null_etag")])
            #expect(claimed.status == 200)
            let etag = try #require(claimed.header("etag"))
            #expect(etag != "null_etag")
            let read = try await emu.database("GET", "/names/bob.json", headers: [("X-Firebase-ETag", "true")])
            #expect(read.header("etag") == etag)
            let taken = try await emu.database(
                "PUT", "/names/bob.json", ["uid": "u2"], headers: [("if-match", "null_etag")])
            #expect(taken.status == 412)
            #expect(taken.json == ["uid": "u1"])
            #expect(taken.header("etag") == etag)
            let staleDelete = try await emu.database("DELETE", "/names/bob.json", headers: [("if-match", "wrong")])
            #expect(staleDelete.status == 412)
            let released = try await emu.database("DELETE", "/names/bob.json", headers: [("if-match", etag)])
            #expect(released.status == 200)
            #expect(try await emu.database("GET", "/names/bob.json").json == .null)
            // ETags are deterministic: the same value gives the same tag.
            let again = try await emu.database(
                "PUT", "/names/bob.json", ["uid": "u1"], headers: [("if-match", "null_etag")])
            #expect(again.header("etag") == etag)
            let unchanged = try await emu.database("GET", "/names/bob.json", headers: [("if-none-match", etag)])
            #expect(unchanged.status == 304)
        }
    }

    @Test func racingConditionalCreatesHaveExactlyOneWinner() async throws {
        try await TestEmulator.with { emu in
            for round in 0..<100 {
                let path = "/race/name-\(round).json"
                async let first = emu.database("PUT", path, ["uid": "first"], headers: [("if-match", "null_etag")])
                async let second = emu.database("PUT", path, ["uid": "second"], headers: [("if-match", "null_etag")])
                let statuses = try await [first.status, second.status].sorted()
                #expect(statuses == [200, 412], "round \(round)")
            }
        }
    }

    @Test func badRequestsGetDatabaseErrors() async throws {
        try await TestEmulator.with { emu in
            let badJSON = try await emu.request("PUT", "\(emu.databaseBase)/a.json?ns=test", body: Array("{nope".utf8))
            #expect(badJSON.status == 400)
            #expect(badJSON.json == ["error": "Invalid data; couldn't parse JSON object, array, or value."])
            let badPath = try await emu.database("GET", "/a$b.json")
            #expect(badPath.status == 400)
            #expect(badPath.json["error"]?.stringValue?.hasPrefix("Invalid path:") == true)
            let badKey = try await emu.database("PUT", "/a.json", ["a.b": 1])
            #expect(badKey.status == 400)
            let patchScalar = try await emu.database("PATCH", "/a.json", 1)
            #expect(patchScalar.status == 400)
            let query = try await emu.database("GET", "/a.json", query: "ns=test&orderBy=x")
            #expect(query.status == 400)
        }
    }
}
