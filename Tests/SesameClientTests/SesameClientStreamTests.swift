import Foundation
import SesameLocalAPI
import Testing

@testable import SesameClient

@Suite("Streams, sequence and reconnection")
struct SesameClientStreamTests {
    static let merge1 = WireMerge(
        mergeId: "m1", fromUid: "guest-0", toUid: "ann", createdAt: Date(timeIntervalSince1970: 0))
    static let merge2 = WireMerge(
        mergeId: "m2", fromUid: "guest-1", toUid: "ann", createdAt: Date(timeIntervalSince1970: 60))

    @Test func theSnapshotComesFirstThenEveryChangeInOrder() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        let states = StreamReader(client.stateChanges)
        let first = try #require(try await states.next())
        #expect(first.sequence == 1)
        #expect(first.changeReason == .snapshot)
        #expect(first.status == .anonymous)

        await daemon.changeAuth(status: "authenticated", uid: "ann", reason: "merged")
        let second = try #require(try await states.next())
        #expect(second.sequence == 2)
        #expect(second.changeReason == .merged)
        #expect(second.user?.uid == "ann")

        await daemon.refreshToken(expiresAt: "2026-11-21T12:00:00Z")
        let third = try #require(try await states.next())
        #expect(third.sequence == 3)
        #expect(third.changeReason == .tokenRefreshed)
        #expect(third.tokenExpiresAt == WireTime.parse("2026-11-21T12:00:00Z"))
        #expect(third.user?.uid == "ann")
        #expect(third.json["sequence"] == 3)
        await client.close()
        await daemon.stop()
    }

    @Test func duplicateAndStaleSequencesAreNeverYielded() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        let states = StreamReader(client.stateChanges)
        _ = try await states.next()
        let stale = LocalAPIMessage.notification(
            method: "connectivityChanged", params: ["connectivity": "offline", "sequence": 1]
        ).json.jsonString
        await daemon.broadcastRaw(stale)
        await daemon.changeAuth(status: "authenticated", uid: "ann", reason: "signed-in")
        let duplicate = LocalAPIMessage.notification(
            method: "connectivityChanged", params: ["connectivity": "offline", "sequence": 2]
        ).json.jsonString
        await daemon.broadcastRaw(duplicate)
        await daemon.refreshToken(expiresAt: "2026-11-21T12:00:00Z")
        #expect(try await states.next()?.sequence == 2)
        let next = try #require(try await states.next())
        #expect(next.sequence == 3)
        #expect(next.connectivity == .online)
        await client.close()
        await daemon.stop()
    }

    @Test func aGapIsRepairedWithGetState() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        let states = StreamReader(client.stateChanges)
        _ = try await states.next()
        await daemon.skipSequence(by: 3)
        await daemon.changeAuth(status: "authenticated", uid: "ann", reason: "signed-in")
        let repaired = try #require(try await states.next())
        #expect(repaired.sequence == 5)
        #expect(repaired.changeReason == .resynchronized)
        #expect(repaired.user?.uid == "ann")
        #expect(await daemon.requests("getState").count == 1)
        await daemon.refreshToken(expiresAt: "2026-11-21T12:00:00Z")
        #expect(try await states.next()?.sequence == 6)
        await client.close()
        await daemon.stop()
    }

    @Test func aRestartedDaemonIsANewInstanceAndItsStateIsYielded() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        let states = StreamReader(client.stateChanges)
        _ = try await states.next()
        await daemon.changeAuth(status: "authenticated", uid: "ann", reason: "signed-in")
        #expect(try await states.next()?.sequence == 2)

        try await daemon.restart()
        let fresh = try #require(try await states.next())
        #expect(fresh.sequence == 1)
        #expect(fresh.changeReason == .snapshot)
        #expect(fresh.user?.uid == "ann")
        #expect(await daemon.requests("subscribe").count == 2)
        await client.close()
        await daemon.stop()
    }

    @Test func aDroppedConnectionToTheSameInstanceResumesWithoutDuplicates() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        let states = StreamReader(client.stateChanges)
        _ = try await states.next()
        await daemon.closeConnections()
        await daemon.waitForRequest("subscribe", count: 2)
        await daemon.changeAuth(status: "authenticated", uid: "ann", reason: "signed-in")
        let next = try #require(try await states.next())
        #expect(next.sequence == 2)
        await client.close()
        await daemon.stop()
    }

    @Test func aGarbageLineIsReportedAndTheClientReconnects() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        let notifications = StreamReader(client.notifications)
        guard case .connected(let hello)? = try await notifications.next()?.event else {
            Issue.record("expected connected first")
            return
        }
        #expect(hello.instance == (await daemon.instance))
        await daemon.waitForRequest("subscribe")
        await daemon.broadcastRaw("{not json")
        guard case .connectionLost(.protocolError)? = try await notifications.next()?.event else {
            Issue.record("expected connectionLost(protocolError)")
            return
        }
        guard case .connected? = try await notifications.next()?.event else {
            Issue.record("expected connected again")
            return
        }
        await daemon.waitForRequest("subscribe", count: 2)
        await daemon.changeAuth(status: "authenticated", uid: "ann", reason: "signed-in")
        let change = try #require(try await notifications.next())
        #expect(change.sequence == 2)
        #expect(change.jsonLine?.contains("\"authStateChanged\"") == true)
        guard case .authStateChanged(let state, let previousUid, let reason) = change.event else {
            Issue.record("expected authStateChanged")
            return
        }
        #expect(state.user?.uid == "ann")
        #expect(previousUid == "guest-1")
        #expect(reason == .signedIn)
        await client.close()
        await daemon.stop()
    }

    @Test func shutdownIsPassedOnAndTheClientComesBack() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        let notifications = StreamReader(client.notifications)
        _ = try await notifications.next()
        await daemon.waitForRequest("subscribe")
        await daemon.notify("shutdown", ["reason": "stopping", "sequence": 1])
        guard case .shutdown(let reason)? = try await notifications.next()?.event else {
            Issue.record("expected shutdown")
            return
        }
        #expect(reason == "stopping")
        try await daemon.restart()
        var sawConnected = false
        while !sawConnected, let next = try await notifications.next() {
            if case .connected = next.event { sawConnected = true }
        }
        #expect(sawConnected)
        await client.close()
        await daemon.stop()
    }

    @Test func streamsShareOneSubscriptionAndTheLastOneUnsubscribes() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        let states = StreamReader(client.stateChanges)
        _ = try await states.next()
        let reader = Task {
            for try await _ in client.stateChanges { break }
        }
        try await reader.value
        await daemon.changeAuth(status: "authenticated", uid: "ann", reason: "signed-in")
        #expect(try await states.next()?.sequence == 2)
        #expect(await daemon.requests("subscribe").count == 1)
        #expect(await daemon.requests("unsubscribe").isEmpty)
        await client.close()
        await daemon.stop()
    }

    @Test func droppingTheLastStreamUnsubscribes() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        let reader = Task {
            for try await _ in client.stateChanges { break }
        }
        try await reader.value
        try await within(10, "unsubscribe") { await daemon.waitForRequest("unsubscribe") }
        #expect(await daemon.subscriptionCount == 0)
        await client.close()
        await daemon.stop()
    }

    @Test func listenersAreCalledWithTheStateAndCanBeRemoved() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        let (seen, continuation) = AsyncStream.makeStream(of: SesameState.self)
        let handle = client.addStateDidChangeListener { continuation.yield($0) }
        var iterator = seen.makeAsyncIterator()
        #expect(await iterator.next()?.sequence == 1)
        await daemon.changeAuth(status: "authenticated", uid: "ann", reason: "signed-in")
        #expect(await iterator.next()?.changeReason == .signedIn)
        client.removeStateDidChangeListener(handle)
        try await within(10, "unsubscribe") { await daemon.waitForRequest("unsubscribe") }
        await client.close()
        await daemon.stop()
    }

    @Test func idTokenChangesStartWithTheHeldToken() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        let tokens = StreamReader(client.idTokenChanges)
        let first = try #require(try await tokens.next())
        #expect(first.uid == "guest-1")
        #expect(first.expiresAt == WireTime.parse("2026-11-21T11:05:00Z"))
        await daemon.refreshToken(expiresAt: "2026-11-21T12:00:00Z")
        let second = try #require(try await tokens.next())
        #expect(second.expiresAt == WireTime.parse("2026-11-21T12:00:00Z"))
        #expect(second.sequence == 2)
        await client.close()
        await daemon.stop()
    }

    @Test func migratorsGetEveryPendingMergeOnceThenNewOnes() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        await daemon.configure { $0.pendingMerges = [Self.merge1] }
        let merges = StreamReader(client.merges)
        #expect(try await merges.next()?.mergeId == "m1")
        let subscribe = try #require(await daemon.requests("subscribe").first)
        #expect(subscribe.params.values["migrator"] == true)
        await daemon.recordMerge(Self.merge2)
        let second = try #require(try await merges.next())
        #expect(second.mergeId == "m2")
        #expect(second.fromUid == "guest-1")
        await client.close()
        await daemon.stop()
    }

    @Test func mergesNeedTheManagerRole() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        await daemon.configure { $0.role = "reader" }
        let merges = StreamReader(client.merges)
        let error = await #expect(throws: SesameClientError.self) { _ = try await merges.next() }
        #expect(error?.reason == "permission-denied")
        await client.close()
        await daemon.stop()
    }

    @Test func aStreamWaitsForTheDaemonToAppear() async throws {
        let daemon = FakeDaemon()
        let client = SesameClient(socketPath: daemon.path, clientName: "tests")
        let states = StreamReader(client.stateChanges)
        try await daemon.start()
        #expect(try await states.next()?.sequence == 1)
        await client.close()
        await daemon.stop()
    }
}
