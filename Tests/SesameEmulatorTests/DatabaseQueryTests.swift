import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("Realtime Database queries and ETags")
struct DatabaseQueryTests {
    /// Children in the order RTDB sorts them by `$value`: null-less types first, ties by key.
    static let mixed: JSONValue = [
        "s2": "b", "n1": 2, "f": false, "o": ["x": 1], "t": true, "n0": -1.5, "s1": "a", "n2": 2,
    ]

    @Test func valuesAndKeysOrderAsRealtimeDatabaseDoes() throws {
        let query = try #require(try DatabaseQuery(parameters: ["orderBy": "\"$value\""]))
        let keys = query.select(from: Self.mixed).map(\.key)
        #expect(keys == ["f", "t", "n0", "n1", "n2", "s1", "s2", "o"])
        let byKey = try #require(try DatabaseQuery(parameters: ["orderBy": "\"$key\""]))
        let numeric: JSONValue = ["b": 1, "10": 1, "9": 1, "-3": 1, "a": 1, "09": 1, "2147483648": 1]
        #expect(byKey.select(from: numeric).map(\.key) == ["-3", "9", "10", "09", "2147483648", "a", "b"])
    }

    @Test func childOrderPutsMissingChildrenFirstAndNeedsNoIndex() async throws {
        try await TestEmulator.with { emu in
            _ = try await emu.database(
                "PUT", "/people.json",
                [
                    "ann": ["age": 31, "name": ["last": "Zed"]], "bob": ["age": 25, "name": ["last": "Ames"]],
                    "cy": ["name": ["last": "Moe"]], "dee": ["age": 40], "eve": ["age": 25],
                ])
            let all = try #require(try DatabaseQuery(parameters: ["orderBy": "\"age\""]))
            let tree = try await emu.database("GET", "/people.json").json
            #expect(all.select(from: tree).map(\.key) == ["cy", "bob", "eve", "ann", "dee"])
            let page = try await emu.database(
                "GET", "/people.json", query: "ns=test&orderBy=%22age%22&startAt=25&limitToFirst=2")
            #expect(page.status == 200)
            #expect(page.json == ["bob": ["age": 25, "name": ["last": "Ames"]], "eve": ["age": 25]])
            let last = try await emu.database("GET", "/people.json", query: "ns=test&orderBy=%22age%22&limitToLast=1")
            #expect(last.json == ["dee": ["age": 40]])
            let nested = try await emu.database(
                "GET", "/people.json", query: "ns=test&orderBy=%22name/last%22&startAt=%22B%22&endAt=%22N%22")
            #expect(nested.json == ["cy": ["name": ["last": "Moe"]]])
            let equal = try await emu.database("GET", "/people.json", query: "ns=test&orderBy=%22age%22&equalTo=25")
            #expect(equal.json.objectValue?.keys.sorted() == ["bob", "eve"])
            let after = try await emu.database(
                "GET", "/people.json", query: "ns=test&orderBy=%22age%22&startAfter=25&endBefore=40")
            #expect(after.json == ["ann": ["age": 31, "name": ["last": "Zed"]]])
            let keys = try await emu.database(
                "GET", "/people.json", query: "ns=test&orderBy=%22$key%22&startAt=%22b%22&endAt=%22d%22")
            #expect(keys.json.objectValue?.keys.sorted() == ["bob", "cy"])
            let none = try await emu.database("GET", "/people.json", query: "ns=test&orderBy=%22age%22&equalTo=99")
            #expect(none.json == .null)
        }
    }

    @Test func malformedQueriesAreRefused() async throws {
        try await TestEmulator.with { emu in
            for query in [
                "limitToFirst=1", "orderBy=age", "orderBy=%22$key%22&startAt=1", "orderBy=%22a%22&limitToFirst=0",
                "orderBy=%22a%22&limitToFirst=1&limitToLast=1", "orderBy=%22a%22&equalTo=1&startAt=0",
                "orderBy=%22a%22&shallow=true", "orderBy=%22a%22&startAt=%7B%7D",
            ] {
                let answer = try await emu.database("GET", "/x.json", query: "ns=test&\(query)")
                #expect(answer.status == 400, "\(query)")
                #expect(answer.json["error"]?.stringValue?.isEmpty == false, "\(query)")
            }
        }
    }

    @Test func everyAnswerCarriesTheETagWhenAskedAndPatchRefusesIfMatch() async throws {
        try await TestEmulator.with { emu in
            let ask = [("X-Firebase-ETag", "true")]
            let patched = try await emu.database("PATCH", "/p.json", ["a": 1], headers: ask)
            #expect(patched.status == 200)
            let read = try await emu.database("GET", "/p.json", headers: ask)
            #expect(read.json == ["a": 1])
            #expect(patched.header("etag") == read.header("etag"))
            #expect(patched.header("etag") != nil)
            // firebase-admin's get_if_changed sends only if-none-match and reads the new ETag.
            let changed = try await emu.database("GET", "/p.json", headers: [("if-none-match", "stale")])
            #expect(changed.status == 200)
            #expect(changed.header("etag") == read.header("etag"))
            let pushed = try await emu.database("POST", "/q.json", "v", headers: ask)
            let key = try #require(pushed.json["name"]?.stringValue)
            let child = try await emu.database("GET", "/q/\(key).json", headers: ask)
            #expect(pushed.header("etag") == child.header("etag"))
            let conditional = try await emu.database(
                "PATCH", "/p.json", ["a": 2], headers: [("if-match", try #require(read.header("etag")))])
            #expect(conditional.status == 400)
            #expect(try await emu.database("GET", "/p.json").json == ["a": 1])
            let silent = try await emu.database(
                "PATCH", "/p.json", ["b": 2], query: "ns=test&print=silent", headers: ask)
            #expect(silent.status == 204)
            #expect(silent.header("etag") == DatabaseValue.etag(of: ["a": 1, "b": 2]))
        }
    }
}
