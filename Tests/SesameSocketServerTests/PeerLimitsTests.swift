import Foundation
import NIOConcurrencyHelpers
import SesameLocalAPI
import SesameTesting
import Testing

@testable import SesameSocketServer

#if canImport(Glibc)
import Glibc
#endif

/// What one peer may take: its share of the connections, an idle connection's slot, its
/// subscriptions, its forced refreshes; and the groups its role is decided from.
@Suite("Limits per peer over a real socket", .timeLimit(.minutes(1)))
struct PeerLimitsTests {
    @Test("a uid past its share is told too-many-connections; its other connections and other uids carry on")
    func uidShare() async throws {
        let harness = try await SocketHarness.start(maximumConnections: 16) {
            $0.maximumConnectionsPerUid = 2
            $0.exemptUids = []
        }
        defer { Task { await harness.stop() } }
        try await withClient(harness.path) { first in
            _ = try await first.call("hello")
            try await withClient(harness.path) { second in
                _ = try await second.call("hello")
                try await withClient(harness.path) { third in
                    let answer = try await third.receive()
                    #expect(answer["error"]?["data"]?["reason"] == "too-many-connections")
                    #expect(await third.isClosedByPeer())
                }
                #expect(try await second.call("getState", id: 2)["result"] != nil)
            }
            // The slot is given back once the daemon sees the close.
            try await eventually("the slot is given back") { harness.server.openConnections == 1 }
            try await withClient(harness.path) { again in
                let answer = try await again.call("hello")
                #expect(answer["result"] != nil)
            }
        }
    }

    @Test("an idle connection is closed after idle_timeout; a subscriber and a busy one are not")
    func idleTimeout() async throws {
        // Two seconds: long enough that a loaded machine (a CI run, parallel workers) subscribes
        // before the subscriber's own connection counts as idle; 0.4 s closed it first there.
        let harness = try await SocketHarness.start { $0.idleTimeout = 2 }
        defer { Task { await harness.stop() } }
        // Twice this test hung past its time limit in a full parallel run and never alone: a
        // stall names the wait it stalled in before the limit ends the test.
        let step = NIOLockedValueBox("the anonymous user")
        let watchdog = Task {
            try? await Task.sleep(for: .seconds(45))
            if !Task.isCancelled { Issue.record("stalled 45 s waiting for \(step.withLockedValue { $0 })") }
        }
        defer { watchdog.cancel() }
        try await harness.awaitAnonymous()
        try await withClient(harness.path) { subscriber in
            step.withLockedValue { $0 = "the subscribe answer" }
            _ = try await subscriber.call("subscribe")
            try await withClient(harness.path) { idle in
                step.withLockedValue { $0 = "the hello answer" }
                _ = try await idle.call("hello")
                step.withLockedValue { $0 = "the idle connection's close" }
                #expect(await idle.isClosedByPeer())
            }
            // Idle for longer than the timeout too, but subscribed: still served.
            step.withLockedValue { $0 = "the subscriber's getState answer" }
            #expect(try await subscriber.call("getState", id: 2)["result"]?["status"] == "anonymous")
        }
    }

    @Test("a connection holds at most 64 subscriptions; the 65th is -32602 until one is removed")
    func subscriptionCap() async throws {
        try await SocketHarness.withAnonymousClient { harness, client in
            var ids: [String] = []
            for id in 1...64 {
                let answer = try await client.call("subscribe", id: id)
                ids.append(try #require(answer["result"]?["subscription"]?.stringValue))
            }
            let refused = try await client.call("subscribe", id: 65)
            #expect(refused["error"]?["code"] == -32602)
            #expect(refused["error"]?["message"]?.stringValue?.contains("64") == true)
            _ = try await client.call("unsubscribe", id: 66, params: ["subscription": .string(ids[0])])
            #expect(try await client.call("subscribe", id: 67)["result"]?["subscription"] != nil)
            // 10,000 more subscribes are refused quickly, and the connection serves on.
            var batch = ""
            for id in 100..<10_100 { batch += #"{"jsonrpc":"2.0","id":\#(id),"method":"subscribe"}"# + "\n" }
            try await client.send(batch)
            var refusedCount = 0
            while refusedCount < 10_000 {
                if try await client.receive()["error"]?["code"] == -32602 { refusedCount += 1 }
            }
            #expect(try await client.call("getState", id: 20_000)["result"] != nil)
        }
    }

    @Test("200 forced refreshes from a reader within 10 s make one backend refresh; a manager's are not limited")
    func forcedRefreshes() async throws {
        let harness = try await SocketHarness.start { $0.roleOfPeer = { _ in .reader } }
        defer { Task { await harness.stop() } }
        try await harness.awaitAnonymous()
        let before = await harness.provider.count("refresh")
        try await withClient(harness.path) { client in
            for id in 1...200 {
                let answer = try await client.call("getIdToken", id: id, params: ["forceRefresh": true])
                #expect(answer["result"]?["token"]?.stringValue != nil)
            }
        }
        #expect(await harness.provider.count("refresh") - before == 1)
        harness.clock.advance(seconds: 10)
        try await withClient(harness.path) { client in
            _ = try await client.call("getIdToken", params: ["forceRefresh": true])
        }
        #expect(await harness.provider.count("refresh") - before == 2)
    }

    @Test(
        "minValidity beyond a fresh token's lifetime: bounded to it less a minute, so 200 calls make no refresh loop"
    )
    func minValidityBeyondLifetime() async throws {
        let harness = try await SocketHarness.start { $0.roleOfPeer = { _ in .reader } }
        defer { Task { await harness.stop() } }
        try await harness.awaitAnonymous()
        let before = await harness.provider.count("refresh")
        // A one-hour token asked to stay valid an hour (or a day): what a fresh token can give is
        // 59 minutes, and the held token, a moment old, gives that.
        var tokens = Set<String>()
        try await withClient(harness.path) { client in
            for id in 1...200 {
                let answer = try await client.call(
                    "getIdToken", id: id, params: ["minValidity": .integer(id % 2 == 0 ? 3600 : 86_400)])
                tokens.insert(try #require(answer["result"]?["token"]?.stringValue))
            }
        }
        #expect(await harness.provider.count("refresh") == before)
        #expect(tokens.count == 1)
        // A minute on, the held token no longer gives 59 minutes: one refresh, whose fresh token
        // satisfies every call after it.
        harness.clock.advance(seconds: 61)
        try await withClient(harness.path) { client in
            for id in 1...200 {
                let answer = try await client.call("getIdToken", id: id, params: ["minValidity": 3600])
                tokens.insert(try #require(answer["result"]?["token"]?.stringValue))
            }
        }
        #expect(await harness.provider.count("refresh") == before + 1)
        #expect(tokens.count == 2)
    }

    @Test("a peer's groups are the ones its process has (SO_PEERGROUPS), not the user database's")
    func peerGroups() async throws {
        let seen = NIOLockedValueBox<PeerCredentials?>(nil)
        let harness = try await SocketHarness.start {
            $0.roleOfPeer = { peer in
                seen.withLockedValue { $0 = peer }
                return .manager
            }
        }
        defer { Task { await harness.stop() } }
        try await withClient(harness.path) { client in _ = try await client.call("hello") }
        var own = [gid_t](repeating: 0, count: 256)
        let count = getgroups(Int32(own.count), &own)
        let peer = try #require(seen.withLockedValue { $0 })
        #expect(Set(try #require(peer.groups)) == Set(own.prefix(Int(count)).map { UInt32($0) }))
        // The directory takes them as they are.
        let identity = SystemAccountDirectory().identity(
            of: PeerCredentials(pid: 1, uid: 4_000_000, gid: 4_000_000, groups: [4_000_001, 4_000_002]))
        #expect(identity.groupIDs == [4_000_000, 4_000_001, 4_000_002])
    }
}
