import Foundation
import SesameCore
import SesameLocalAPI
import SesameSocketServer
import Testing

/// Who gets a notification, and in what order.
///
/// The hub flushes a notification to its subscribers in chunks (one event loop task per
/// chunk, 1,024 in sesamed), so the first are written to while the rest are still being
/// queued. Here the chunk is 8 and the subscribers span five and a bit chunks: nobody may be
/// skipped, doubled or reordered. (Few descriptors on purpose: this process also runs
/// Foundation's `Process`, which can crash while listing thousands of open descriptors.) And
/// a connection's events follow its subscriptions as they are added and removed.
@Suite("Fan-out: who gets a notification, and in what order", .timeLimit(.minutes(1)))
struct FanOutTests {
    static let subscribers = 43

    @Test("a sign-out reaches each of 43 subscribers (chunks of 8) once, in order, after its snapshot")
    func everySubscriberOnceInOrder() async throws {
        let harness = try await SocketHarness.start(fanOutChunk: 8)
        defer { Task { await harness.stop() } }
        try await harness.awaitAnonymous()
        // Each client says when it has its snapshot, or that it failed (then the group's
        // error is reported instead of waiting out the time limit).
        let (subscribed, signal) = AsyncStream.makeStream(of: Bool.self)
        try await withThrowingTaskGroup(of: [Int64].self) { group in
            for _ in 0..<Self.subscribers {
                group.addTask {
                    do {
                        return try await withClient(harness.path) { client in
                            let answer = try await client.call(
                                "subscribe", id: 1, params: ["events": ["authStateChanged"]])
                            let start = try #require(answer["result"]?["state"]?["sequence"]?.int64Value)
                            signal.yield(true)
                            var sequences: [Int64] = []
                            while sequences.count < 2 {
                                let message = try await client.receive()
                                #expect(message["method"] == "authStateChanged")
                                sequences.append(try #require(message["params"]?["sequence"]?.int64Value))
                            }
                            return [start] + sequences
                        }
                    } catch {
                        signal.yield(false)
                        throw error
                    }
                }
            }
            var ready = 0
            for await success in subscribed {
                guard success else { break }
                ready += 1
                if ready == Self.subscribers { break }
            }
            try await withClient(harness.path) { actor in
                let answer = try await actor.call("signOut", id: 1, params: ["reset": true])
                #expect(answer["result"]?["status"] == "anonymous")
            }
            var received = 0
            for try await seen in group {
                received += 1
                // The snapshot, then the two changes of the sign-out right after it.
                #expect(seen == [seen[0], seen[0] + 1, seen[0] + 2])
            }
            #expect(received == Self.subscribers)
        }
    }

    @Test("after one of two subscriptions is removed a connection gets only the other's events; after both, none")
    func unsubscribeNarrowsTheEvents() async throws {
        try await SocketHarness.withAnonymousClient { harness, client in
            let tokens = try await client.call("subscribe", id: 1, params: ["events": ["idTokenChanged"]])
            let states = try await client.call("subscribe", id: 2, params: ["events": ["authStateChanged"]])
            let tokenSubscription = try #require(tokens["result"]?["subscription"])
            let stateSubscription = try #require(states["result"]?["subscription"])

            var notifications: [JSONValue] = []
            _ = try await client.call("signOut", id: 3, params: ["reset": true], notifications: &notifications)
            #expect(
                Set(notifications.compactMap { $0["method"]?.stringValue }) == ["idTokenChanged", "authStateChanged"])

            let removed = try await client.call("unsubscribe", id: 4, params: ["subscription": stateSubscription])
            #expect(removed["result"] != nil)
            notifications = []
            _ = try await client.call("signOut", id: 5, params: ["reset": true], notifications: &notifications)
            #expect(!notifications.isEmpty)
            #expect(notifications.allSatisfy { $0["method"] == "idTokenChanged" })

            _ = try await client.call("unsubscribe", id: 6, params: ["subscription": tokenSubscription])
            notifications = []
            _ = try await client.call("signOut", id: 7, params: ["reset": true], notifications: &notifications)
            #expect(notifications.isEmpty)
        }
    }
}
