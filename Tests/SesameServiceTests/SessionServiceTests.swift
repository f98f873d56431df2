import Foundation
import SesameCore
import SesameService
import SesameTesting
import Testing

@Suite("SessionService")
struct SessionServiceTests {
    @Test("anonymous first: an empty keyring gets an anonymous user, persisted before it is announced")
    func anonymousFirst() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            let created = try await next(&events) { $0.reason != nil }
            #expect(created.reason == .anonymousCreated)
            #expect(created.sequence == 2)
            #expect(created.state.status == .anonymous)
            let stored = await harness.store.stored
            #expect(stored?.session?.uid == created.state.user?.uid)
            let token = try await next(&events) { $0.isIdTokenChanged }
            #expect(token.sequence == 3)
        }
    }

    @Test("a stored session is kept: no new account on restart")
    func restartKeepsUid() async throws {
        let first = ServiceHarness()
        var uid: String?
        try await first.run { events in
            uid = try await next(&events) { $0.reason == .anonymousCreated }.state.user?.uid
        }
        let stored = await first.store.stored
        let second = ServiceHarness(stored: stored)
        try await second.run { _ in
            let state = await second.service.state
            #expect(state.user?.uid == uid)
            #expect(await second.provider.count("signUp") == 0)
        }
    }

    @Test("200 concurrent token requests share one backend refresh")
    func singleFlight() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            _ = try await next(&events) { $0.reason == .anonymousCreated }
            await harness.provider.holdRefreshes()
            let service = harness.service
            try await withThrowingTaskGroup(of: String.self) { group in
                for i in 0..<200 {
                    group.addTask {
                        try await service.tokens.idToken(minValidity: 300, forceRefresh: i % 2 == 0).idToken.rawValue
                    }
                }
                try await eventually { await harness.provider.heldRefreshCount == 1 }
                await harness.provider.releaseRefreshes()
                var tokens = Set<String>()
                for try await token in group { tokens.insert(token) }
                // The forced half and the half that found a valid token may differ, but only one
                // refresh reached the backend.
                #expect(tokens.count <= 2)
            }
            #expect(await harness.provider.count("refresh") == 1)
        }
    }

    @Test("the refresher renews the token ahead of expiry without anyone asking")
    func proactiveRefresh() async throws {
        let harness = ServiceHarness(configuration: .init(refreshMargin: 300))
        try await harness.run { events in
            let created = try await next(&events) { $0.reason == .anonymousCreated }
            let firstExpiry = try #require(created.state.tokenExpiresAt)
            _ = try await next(&events) { $0.isIdTokenChanged }  // the first token's announcement
            try await eventually { harness.clock.sleeperCount > 0 }
            harness.clock.advance(seconds: 3000)  // before the window: nothing
            #expect(await harness.provider.count("refresh") == 0)
            harness.clock.advance(seconds: 300)  // expiry minus the margin
            let renewed = try await next(&events) { $0.isIdTokenChanged }
            #expect(renewed.state.tokenExpiresAt! > firstExpiry)
            #expect(await harness.provider.count("refresh") == 1)
        }
    }

    @Test("offline: a still-valid token is served, connectivity goes offline and back")
    func offlineKeepsSession() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            let created = try await next(&events) { $0.reason == .anonymousCreated }
            await harness.provider.setOffline(true)
            // 100 s on, the one-hour token holds 3,500 s: asked for 3,540 (the most a fresh token
            // is asked to give, its lifetime less a minute), the service tries a refresh.
            harness.clock.advance(seconds: 100)
            let token = try await harness.service.tokens.idToken(minValidity: 3540)
            #expect(token.uid == created.state.user?.uid)
            let offline = try await next(&events) { $0.isConnectivityChanged }
            #expect(offline.state.connectivity == .offline)
            await #expect(throws: AuthError(.networkRequestFailed)) {
                _ = try await harness.service.tokens.idToken(forceRefresh: true)
            }
            await harness.provider.setOffline(false)
            _ = try await harness.service.tokens.idToken(forceRefresh: true)
            let online = try await next(&events) { $0.isConnectivityChanged }
            #expect(online.state.connectivity == .online)
            #expect(await harness.service.state.user?.uid == created.state.user?.uid)
        }
    }

    @Test("a refused refresh token ends the session and a new anonymous user follows")
    func revoked() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            let created = try await next(&events) { $0.reason == .anonymousCreated }
            let oldUid = try #require(created.state.user?.uid)
            await harness.provider.deleteAccountAsAdmin(oldUid)
            await #expect(throws: AuthError(.sessionRevoked)) {
                _ = try await harness.service.tokens.idToken(forceRefresh: true)
            }
            let revoked = try await next(&events) { $0.reason != nil }
            #expect(revoked.reason == .sessionRevoked)
            let fresh = try await next(&events) { $0.reason == .anonymousCreated }
            #expect(fresh.state.user?.uid != oldUid)
        }
    }

    @Test("signing out a guest needs reset, and then deletes the guest at the backend")
    func resetGuest() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            let created = try await next(&events) { $0.reason == .anonymousCreated }
            let guest = try #require(created.state.user?.uid)
            await #expect(throws: AuthError(.requiresResetConfirmation)) {
                _ = try await harness.service.accounts.signOut(reset: false)
            }
            let after = try await harness.service.accounts.signOut(reset: true)
            #expect(after.status == .anonymous)
            #expect(after.user?.uid != guest)
            #expect(try await next(&events) { $0.reason != nil }.reason == .reset)
            #expect(try await next(&events) { $0.reason != nil }.reason == .anonymousCreated)
            #expect(await harness.provider.accounts[guest] == nil)
            #expect(await harness.store.stored?.pendingDeletions.isEmpty == true)
        }
    }

    @Test("offline reset still succeeds at once; the deletion waits in the keyring and happens later")
    func offlineReset() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            let created = try await next(&events) { $0.reason == .anonymousCreated }
            let guest = try #require(created.state.user?.uid)
            await harness.provider.setOffline(true)
            let after = try await harness.service.accounts.signOut(reset: true)
            #expect(after.status == .signedOut)
            #expect(await harness.store.stored?.pendingDeletions.map(\.uid) == [guest])
            await harness.provider.setOffline(false)
            try await eventually { harness.clock.sleeperCount > 0 }
            harness.clock.advance(seconds: 61)
            _ = try await next(&events) { $0.reason == .anonymousCreated }
            try await eventually { await harness.provider.accounts[guest] == nil }
            try await eventually { await harness.store.stored?.pendingDeletions.isEmpty == true }
        }
    }

    @Test("signing in from a guest records a merge; the guest's token works until the merge completes")
    func mergeFlow() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            let created = try await next(&events) { $0.reason == .anonymousCreated }
            let guest = try #require(created.state.user?.uid)
            let account = await harness.provider.addAccount(email: "ann@example.com", password: "secret1")
            let outcome = try await harness.service.accounts.signIn(identifier: "ann@example.com", password: "secret1")
            let merge = try #require(outcome.merge)
            #expect(merge.fromUid == guest)
            #expect(merge.toUid == account)
            #expect(outcome.state.user?.uid == account)
            #expect(await harness.store.stored?.pendingMerges.map(\.merge) == [merge])
            let guestToken = try await harness.service.tokens.idToken(uid: guest)
            #expect(guestToken.uid == guest)
            let unknown = await #expect(throws: AuthError.self) {
                _ = try await harness.service.tokens.idToken(uid: "other")
            }
            #expect(unknown?.reason == .noSuchMerge)
            #expect(await harness.provider.accounts[guest] != nil)
            let completed = try await harness.service.accounts.completeMerge(mergeId: merge.mergeId)
            #expect(completed.pendingMerges.isEmpty)
            #expect(await harness.provider.accounts[guest] == nil)
            await #expect(throws: AuthError(.noSuchMerge)) {
                _ = try await harness.service.accounts.completeMerge(mergeId: merge.mergeId)
            }
        }
    }

    @Test("merge.hold = 0 completes the merge at once")
    func mergeHoldZero() async throws {
        let harness = ServiceHarness(configuration: .init(mergeHold: 0))
        try await harness.run { events in
            let guest = try #require(try await next(&events) { $0.reason == .anonymousCreated }.state.user?.uid)
            _ = await harness.provider.addAccount(email: "bo@example.com", password: "secret1")
            let outcome = try await harness.service.accounts.signIn(identifier: "bo@example.com", password: "secret1")
            #expect(outcome.merge != nil)
            #expect(outcome.state.pendingMerges.isEmpty)
            #expect(await harness.provider.accounts[guest] == nil)
        }
    }

    @Test("a merge whose hold runs out is completed by the daemon")
    func mergeHoldExpires() async throws {
        let harness = ServiceHarness(configuration: .init(mergeHold: 600))
        try await harness.run { events in
            let guest = try #require(try await next(&events) { $0.reason == .anonymousCreated }.state.user?.uid)
            _ = await harness.provider.addAccount(email: "cy@example.com", password: "secret1")
            _ = try await harness.service.accounts.signIn(identifier: "cy@example.com", password: "secret1")
            try await eventually { harness.clock.sleeperCount > 0 }
            harness.clock.advance(seconds: 601)
            try await eventually { await harness.provider.accounts[guest] == nil }
            #expect(await harness.service.state.pendingMerges.isEmpty)
        }
    }

    @Test("creating an account from a guest links it: the uid is kept")
    func createAccountLinks() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            let guest = try #require(try await next(&events) { $0.reason == .anonymousCreated }.state.user?.uid)
            let state = try await harness.service.accounts.createAccount(email: "dee@example.com", password: "secret1")
            #expect(state.user?.uid == guest)
            #expect(state.status == .authenticated)
            #expect(try await next(&events) { $0.reason != nil }.reason == .linked)
            await #expect(throws: AuthError(.alreadySignedIn)) {
                _ = try await harness.service.accounts.createAccount(email: "x@example.com", password: "secret1")
            }
        }
    }

    @Test("an unreadable keyring is an error, never taken for signed out")
    func unreadableKeyring() async throws {
        let harness = ServiceHarness()
        await harness.store.failLoads(with: SessionStoreError(.unreadable, "corrupt"))
        await #expect(throws: SessionStoreError.self) { try await harness.service.start() }
        #expect(await harness.store.saveCount == 0)
        #expect(await harness.service.state.status == .starting)
    }

    @Test("offline at first start: signed out, and the anonymous user comes when the backend is back")
    func offlineFirstStart() async throws {
        let harness = ServiceHarness()
        await harness.provider.setOffline(true)
        try await harness.run { events in
            try await eventually { await harness.provider.count("signUp") >= 1 }
            #expect(await harness.service.state.status == .signedOut)
            await harness.provider.setOffline(false)
            try await eventually { harness.clock.sleeperCount > 0 }
            harness.clock.advance(seconds: 2)
            let created = try await next(&events) { $0.reason == .anonymousCreated }
            #expect(created.state.status == .anonymous)
        }
    }
}
