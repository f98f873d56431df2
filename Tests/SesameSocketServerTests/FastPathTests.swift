import Foundation
import SesameCore
import SesameLocalAPI
import SesameService
import SesameTesting
import Testing

/// The answers served on the event loop from what the session published (``SessionAnswers``):
/// they must be exactly what the session service would have answered, at every edge.
@Suite("Answers served from the published session, over a real Unix socket", .timeLimit(.minutes(1)))
struct FastPathTests {
    @Test(
        "getIdToken: valid for at least minValidity is the held token; a hair more goes to the service, which refreshes; the next answer carries the new token"
    )
    func minValidityEdges() async throws {
        let harness = try await SocketHarness.start()
        defer { Task { await harness.stop() } }
        try await harness.awaitAnonymous()
        // Time moves on the service's clock only: a daemon that read the system clock would
        // see the token valid for years and answer the last call from its cache.
        harness.clock.advance(seconds: 1000)
        let held = try await harness.service.tokens.idToken(minValidity: 0).idToken
        let remaining = held.remainingValidity(at: harness.clock.date)
        #expect(remaining == 2600)
        let refreshes = await harness.provider.count("refresh")
        try await withClient(harness.path) { client in
            let below = try await client.call("getIdToken", id: 1, params: ["minValidity": .number(remaining - 0.5)])
            #expect(below["result"]?["token"] == .string(held.rawValue))
            let exact = try await client.call("getIdToken", id: 2, params: ["minValidity": .number(remaining)])
            #expect(exact["result"]?["token"] == .string(held.rawValue))
            #expect(await harness.provider.count("refresh") == refreshes)

            let above = try await client.call("getIdToken", id: 3, params: ["minValidity": .number(remaining + 0.5)])
            let renewed = try #require(above["result"]?["token"]?.stringValue)
            #expect(renewed != held.rawValue)
            #expect(await harness.provider.count("refresh") == refreshes + 1)
            #expect(
                above["result"]?["expiresAt"] == .string(WireTime.string(harness.clock.date.addingTimeInterval(3600))))

            let next = try await client.call("getIdToken", id: 4)
            #expect(next["result"]?["token"] == .string(renewed))
            let repeated = try await client.call("getIdToken", id: 4)
            #expect(repeated == next)
            #expect(await harness.provider.count("refresh") == refreshes + 1)
        }
    }

    @Test("after a forced refresh the cached answer is the new token, with its own times")
    func afterForcedRefresh() async throws {
        try await SocketHarness.withAnonymousClient { harness, client in
            let first = try #require(try await client.call("getIdToken", id: 1)["result"])
            harness.clock.advance(seconds: 60)
            let forced = try #require(
                try await client.call("getIdToken", id: 2, params: ["forceRefresh": true])["result"])
            #expect(forced["token"] != first["token"])
            #expect(forced["issuedAt"] == .string(WireTime.string(harness.clock.date)))
            let cached = try #require(try await client.call("getIdToken", id: 3)["result"])
            #expect(cached == forced)
        }
    }

    @Test("after a sign-out no token is served: getIdToken is no-current-user and getState has no token")
    func afterSignOut() async throws {
        let harness = try await SocketHarness.start(configuration: .init(anonymousFirst: false))
        defer { Task { await harness.stop() } }
        try await withClient(harness.path) { client in
            let signedIn = try await client.call("signInAnonymously", id: 1)
            #expect(signedIn["result"]?["status"] == "anonymous")
            let token = try await client.call("getIdToken", id: 2)
            #expect(token["result"]?["token"]?.stringValue != nil)
            let out = try await client.call("signOut", id: 3, params: ["reset": true])
            #expect(out["result"]?["status"] == "signedOut")
            let none = try await client.call("getIdToken", id: 4)
            #expect(none["result"] == nil)
            #expect(none["error"]?["data"]?["reason"] == "no-current-user")
            let state = try await client.call("getState", id: 5)
            #expect(state["result"]?["status"] == "signedOut")
            #expect(state["result"]?["token"] == .null)
        }
    }

    @Test(
        "every id is echoed byte for byte, on cached, service and error answers",
        arguments: [
            "98765432109876543210987", "9007199254740993", "-42", "0", "1.50", "1e3", #""req-7""#,
            #""\u00e9\"x""#, "null",
        ])
    func idsEchoedAsGiven(id: String) async throws {
        try await SocketHarness.withAnonymousClient { harness, client in
            for request in [
                #"{"jsonrpc":"2.0","id":\#(id),"method":"getIdToken"}"#,
                #"{"jsonrpc":"2.0","id" : \#(id) ,"method":"getState"}"#,
                #"{"method":"getIdToken","params":{"forceRefresh":true,"id":1},"id":\#(id),"jsonrpc":"2.0"}"#,
            ] {
                try await client.send(request)
                let line = try await client.receiveLine()
                #expect(line.hasPrefix(#"{"id":\#(id),"jsonrpc":"2.0","result":{"#), "\(line.prefix(60))")
                #expect((try JSONValue.parse(line))["result"] != nil)
            }
            try await client.send(#"{"jsonrpc":"2.0","id":\#(id),"method":"noSuchMethod"}"#)
            let failure = try await client.receiveLine()
            #expect(failure.hasPrefix(#"{"error":{"#))
            #expect(failure.hasSuffix(#","id":\#(id),"jsonrpc":"2.0"}"#))
            try await client.send(#"{"id":\#(id),"method":"getState"}"#)
            #expect(try await client.receiveLine().hasSuffix(#","id":\#(id),"jsonrpc":"2.0"}"#))
        }
    }

    @Test("a request that caused events is answered after them; the cached getState then shows the change")
    func eventsBeforeAnswerThenCachedState() async throws {
        try await SocketHarness.withAnonymousClient { harness, client in
            _ = try await client.call("subscribe", id: 1)
            // One write: the change, then requests answered on the event loop right behind it.
            try await client.send(
                #"{"jsonrpc":"2.0","id":2,"method":"updateProfile","params":{"displayName":"Ann"}}"# + "\n"
                    + #"{"jsonrpc":"2.0","id":3,"method":"getState"}"# + "\n"
                    + #"{"jsonrpc":"2.0","id":4,"method":"getIdToken"}"#)
            var seen: [JSONValue] = []
            while !seen.contains(where: { $0["id"] == 2 }) || !seen.contains(where: { $0["id"] == 4 })
                || !seen.contains(where: { $0["id"] == 3 })
            {
                seen.append(try await client.receive())
            }
            let updated = try #require(seen.firstIndex { $0["method"] == "userUpdated" })
            let answered = try #require(seen.firstIndex { $0["id"] == 2 })
            #expect(updated < answered)
            let sequence = seen[updated]["params"]?["sequence"]
            #expect(seen[answered]["result"]?["sequence"] == sequence)
            let state = try await client.call("getState", id: 5)
            #expect(state["result"] == seen[answered]["result"])
            #expect(state["result"]?["sequence"] == sequence)
        }
    }
}
