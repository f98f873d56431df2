import Foundation
import NIOCore
import SesameCore
import SesameLocalAPI
import SesameService
import SesameSocketServer
import SesameTesting
import Testing

@Suite("Local API over a real Unix socket", .timeLimit(.minutes(1)))
struct SocketServerTests {
    @Test("hello tells the role and the peer's credentials")
    func hello() async throws {
        let harness = try await SocketHarness.start()
        defer { Task { await harness.stop() } }
        let result = try await withClient(harness.path) { client in try await client.call("hello")["result"] }
        #expect(result?["server"] == "sesamed")
        #expect(result?["protocol"] == 1)
        #expect(result?["role"] == "manager")
        #expect(result?["instance"] == "i-test")
        #expect(result?["peer"]?["pid"]?.int64Value == Int64(getpid()))
        #expect(result?["peer"]?["uid"]?.int64Value == Int64(getuid()))
        #expect(result?["backend"] == "fake")
    }

    @Test(
        "completeSignInLink takes link or code, exactly one; a code on a backend without codes is operation-not-allowed"
    )
    func signInProofParams() async throws {
        let harness = try await SocketHarness.start()
        defer { Task { await harness.stop() } }
        try await harness.awaitAnonymous()
        try await withClient(harness.path) { client in
            var answer = try await client.call("completeSignInLink", id: 1, params: ["email": "a@b.c"])
            #expect(answer["error"]?["code"] == -32602)
            answer = try await client.call(
                "completeSignInLink", id: 2, params: ["email": "a@b.c", "link": "https://x.invalid", "code": "123456"])
            #expect(answer["error"]?["code"] == -32602)
            answer = try await client.call("completeSignInLink", id: 3, params: ["email": "a@b.c", "code": "123456"])
            #expect(answer["error"]?["code"] == 1000)
            #expect(answer["error"]?["data"]?["reason"] == "operation-not-allowed")
            answer = try await client.call(
                "completeSignInLink", id: 4, params: ["email": "a@b.c", "link": "https://x.invalid"])
            #expect(answer["error"]?["data"]?["reason"] == "invalid-action-code")
        }
        #expect(await harness.provider.count("signInWithEmailLink") == 0)
    }

    @Test("bad input gets the protocol's errors and the connection carries on")
    func badInput() async throws {
        let harness = try await SocketHarness.start()
        defer { Task { await harness.stop() } }
        try await withClient(harness.path) { client in
            try await client.send("this is not json")
            var answer = try await client.receive()
            #expect(answer["error"]?["code"] == -32700)
            #expect(answer["id"] == .null)

            try await client.send(#"[{"jsonrpc":"2.0","id":1,"method":"hello"}]"#)
            answer = try await client.receive()
            #expect(answer["error"]?["data"]?["reason"] == "invalid-request")
            #expect(answer["id"] == .null)

            try await client.send(#"{"id":9,"method":"hello"}"#)
            answer = try await client.receive()
            #expect(answer["error"]?["code"] == -32600)
            #expect(answer["id"] == 9)

            answer = try await client.call("noSuchMethod", id: 10)
            #expect(answer["error"]?["code"] == -32601)
            #expect(answer["error"]?["data"]?["reason"] == "method-not-found")

            answer = try await client.call("signOut", id: 11, params: ["reset": "yes"])
            #expect(answer["error"]?["code"] == -32602)

            answer = try await client.call("subscribe", id: 12, params: ["events": ["nope"]])
            #expect(answer["error"]?["code"] == -32602)

            answer = try await client.call("unsubscribe", id: 13, params: ["subscription": "s999"])
            #expect(answer["error"]?["code"] == -32602)

            // A notification (no id) is neither executed nor answered; blank lines are ignored.
            try await client.send(#"{"jsonrpc":"2.0","method":"signOut","params":{"reset":true}}"#)
            try await client.send("")
            answer = try await client.call("getState", id: 14)
            #expect(answer["id"] == 14)
            #expect(answer["result"]?["status"] == "signedOut" || answer["result"]?["status"] == "anonymous")
        }
        #expect(await harness.provider.count("delete") == 0)
    }

    @Test("a line over 65,536 bytes is refused, the connection closed, and others are unaffected")
    func hugeLine() async throws {
        let harness = try await SocketHarness.start()
        defer { Task { await harness.stop() } }
        try await withClient(harness.path) { other in
            try await withClient(harness.path) { client in
                let padding = String(repeating: "x", count: 70_000)
                try await client.send(#"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"client":"\#(padding)"}}"#)
                let answer = try await client.receive()
                #expect(answer["error"]?["data"]?["reason"] == "request-too-large")
                #expect(answer["id"] == .null)
                #expect(await client.isClosedByPeer())
            }
            let answer = try await other.call("hello", id: 2)
            #expect(answer["result"]?["server"] == "sesamed")
        }
    }

    @Test("exactly 65,536 bytes is still a request")
    func lineAtTheLimit() async throws {
        let harness = try await SocketHarness.start()
        defer { Task { await harness.stop() } }
        try await withClient(harness.path) { client in
            let prefix = #"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"client":""#
            let suffix = #""}}"#
            let padding = String(repeating: "y", count: 65_536 - prefix.utf8.count - suffix.utf8.count)
            try await client.send(prefix + padding + suffix)
            let answer = try await client.receive()
            #expect(answer["result"]?["server"] == "sesamed")
        }
    }

    @Test("subscribe answers with a snapshot; later notifications follow in sequence order, events before the response")
    func snapshotThenOrderedEvents() async throws {
        let harness = try await SocketHarness.start()
        defer { Task { await harness.stop() } }
        try await harness.awaitAnonymous()
        try await withClient(harness.path) { watcher in
            let subscribed = try await watcher.call("subscribe", id: 1)
            let snapshot = try #require(subscribed["result"]?["state"])
            let start = try #require(snapshot["sequence"]?.int64Value)
            #expect(snapshot["status"] == "anonymous")
            #expect(subscribed["result"]?["subscription"]?.stringValue != nil)

            var notifications: [JSONValue] = []
            let response = try await watcher.call(
                "signOut", id: 2, params: ["reset": true], notifications: &notifications)
            #expect(response["result"]?["status"] == "anonymous")
            let reasons = notifications.compactMap { $0["params"]?["reason"]?.stringValue }
            #expect(reasons == ["reset", "anonymous-created"])
            let sequences = notifications.compactMap { $0["params"]?["sequence"]?.int64Value }
            #expect(sequences == Array((start + 1)...(start + Int64(sequences.count))))
            #expect(response["result"]?["sequence"]?.int64Value == sequences.last)
        }
    }

    @Test("a late subscriber gets the current snapshot, and another client's sign-out reaches every watcher")
    func manyClients() async throws {
        let harness = try await SocketHarness.start()
        defer { Task { await harness.stop() } }
        try await harness.awaitAnonymous()
        let (subscribed, signal) = AsyncStream.makeStream(of: Void.self)
        try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await withClient(harness.path) { client in
                        _ = try await client.call("subscribe", id: 1, params: ["events": ["authStateChanged"]])
                        signal.yield()
                        var reasons: [String] = []
                        while reasons.count < 2 {
                            let message = try await client.receive()
                            if let reason = message["params"]?["reason"]?.stringValue { reasons.append(reason) }
                        }
                        return reasons
                    }
                }
            }
            // Act once every watcher has its subscription.
            var ready = 0
            for await _ in subscribed {
                ready += 1
                if ready == 8 { break }
            }
            try await withClient(harness.path) { actor in
                let answer = try await actor.call("signOut", id: 1, params: ["reset": true])
                #expect(answer["result"] != nil)
            }
            for try await reasons in group { #expect(reasons == ["reset", "anonymous-created"]) }
        }
    }

    @Test("connections beyond max_connections are told too-many-connections and closed")
    func connectionLimit() async throws {
        let harness = try await SocketHarness.start(maximumConnections: 2)
        defer { Task { await harness.stop() } }
        try await withClient(harness.path) { first in
            _ = try await first.call("hello")
            try await withClient(harness.path) { second in
                _ = try await second.call("hello")
                try await withClient(harness.path) { third in
                    let answer = try await third.receive()
                    #expect(answer["error"]?["data"]?["reason"] == "too-many-connections")
                    #expect(answer["error"]?["code"] == 4000)
                    #expect(await third.isClosedByPeer())
                }
            }
        }
    }

    @Test("many pipelined requests are all answered, with their ids")
    func pipelining() async throws {
        try await SocketHarness.withAnonymousClient { harness, client in
            var batch = ""
            for id in 0..<300 {
                batch += #"{"jsonrpc":"2.0","id":\#(id),"method":"getIdToken","params":{"minValidity":60}}"# + "\n"
            }
            try await client.send(bytes: Array(batch.utf8))
            var ids = Set<Int64>()
            while ids.count < 300 {
                let answer = try await client.receive()
                #expect(answer["result"]?["token"]?.stringValue != nil)
                if let id = answer["id"]?.int64Value { ids.insert(id) }
            }
            #expect(ids == Set(0..<300))
        }
    }

    @Test("a subscriber that never reads is disconnected past 1 MiB; everyone else carries on")
    func slowSubscriber() async throws {
        let harness = try await SocketHarness.start()
        defer { Task { await harness.stop() } }
        try await harness.awaitAnonymous()
        try await withClient(harness.path) { slow in
            _ = try await slow.call("subscribe", id: 1)
            // The slow client stops reading; the daemon keeps producing notifications.
            for _ in 0..<20_000 {
                _ = try await harness.service.tokens.idToken(forceRefresh: true)
                if harness.server.openConnections == 0 { break }
            }
            // The disconnect happens on the connection's event loop, which a loaded machine may
            // not have run yet when the last notification was queued.
            try await eventually("the slow subscriber is disconnected") { harness.server.openConnections == 0 }
        }
        try await withClient(harness.path) { other in
            let answer = try await other.call("getState")
            #expect(answer["result"]?["status"] == "anonymous")
        }
    }
}

@Suite("Access policy")
struct AccessPolicyTests {
    struct Table: AccountDirectory {
        func identity(of peer: PeerCredentials) -> PeerIdentity {
            switch peer.uid {
            case 1000: PeerIdentity(userName: "ann", groupIDs: [1000, 27], groupNames: ["ann", "sesame"])
            case 1001: PeerIdentity(userName: "bob", groupIDs: [1001], groupNames: ["bob"])
            default: PeerIdentity(userName: nil, groupIDs: [peer.gid], groupNames: [])
            }
        }
    }

    @Test(
        "roles come from the entries; root and the daemon's uid are managers; nobody else has a role",
        arguments: [
            (UInt32(0), LocalAPIRole.manager), (500, .manager), (1000, .reader), (1001, .observer), (65534, .none),
            (1002, .manager),
        ])
    func roles(uid: UInt32, expected: LocalAPIRole) {
        let policy = AccessPolicy(
            daemonUid: 500, managers: [.uid(1002)], readers: [.group("sesame")], observers: [.user("bob")])
        #expect(
            policy.role(
                for: PeerCredentials(pid: 1, uid: uid, gid: uid, process: .daemonNamespaces), directory: Table())
                == expected)
    }

    @Test("entries parse", arguments: ["user:ann", "group:sesame", "uid:12", "gid:0"])
    func parse(_ entry: String) { #expect(AccessPolicy.Principal(entry) != nil) }

    @Test("malformed entries do not", arguments: ["ann", "uid:x", "gid:", "team:x", ":x"])
    func malformed(_ entry: String) { #expect(AccessPolicy.Principal(entry) == nil) }
}
