import Foundation
import SesameCore
import SesameService
import SesameTesting
import Testing

/// Merges through the service on the fake backend and the manual clock (moved down from the
/// end-to-end tests, which keep the ones about processes, restarts and the migrator).
@Suite("SessionService: merges")
struct MergeServiceTests {
    /// Signs the guest in to an existing account: a merge is recorded.
    func mergeGuest(
        _ harness: ServiceHarness, _ events: inout AsyncStream<SessionEvent>.Iterator
    ) async throws
        -> (guest: String, account: String, merge: Merge)
    {
        let guest = try #require(try await next(&events) { $0.reason == .anonymousCreated }.state.user?.uid)
        let account = await harness.provider.addAccount(email: "acct@example.com", password: "secret12")
        let outcome = try await harness.service.accounts.signIn(identifier: "acct@example.com", password: "secret12")
        return (guest, account, try #require(outcome.merge))
    }

    @Test("merge.hold = 0: the guest is deleted at once and no merge stays pending")
    func holdZero() async throws {
        let harness = ServiceHarness(configuration: .init(mergeHold: 0))
        try await harness.run { events in
            let (guest, account, merge) = try await mergeGuest(harness, &events)
            #expect(merge.fromUid == guest && merge.toUid == account)
            #expect(await harness.provider.accounts[guest] == nil)
            #expect(await harness.provider.accounts[account] != nil)
            let state = await harness.service.state
            #expect(state.pendingMerges.isEmpty && state.user?.uid == account)
        }
    }

    @Test("a merge whose hold runs out is completed by the daemon itself, then the guest is deleted")
    func holdRunsOut() async throws {
        let harness = ServiceHarness(configuration: .init(mergeHold: 120))
        try await harness.run { events in
            let (guest, _, _) = try await mergeGuest(harness, &events)
            #expect(await harness.service.state.pendingMerges.count == 1)
            #expect(await harness.provider.accounts[guest] != nil)
            try await eventually {
                harness.clock.advance(by: .seconds(30))
                return await harness.provider.accounts[guest] == nil
            }
            #expect(await harness.service.state.pendingMerges.isEmpty)
        }
    }

    @Test("a merge whose guest an administrator already deleted: completeMerge succeeds and nothing is retried")
    func guestAlreadyGone() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            let (guest, account, merge) = try await mergeGuest(harness, &events)
            await harness.provider.deleteAccountAsAdmin(guest)
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.tokens.idToken(forceRefresh: true, uid: guest)
                } == .sessionRevoked)
            let state = try await harness.service.accounts.completeMerge(mergeId: merge.mergeId)
            #expect(state.pendingMerges.isEmpty && state.user?.uid == account)
            #expect(await harness.store.stored?.pendingDeletions == [])
            #expect(await harness.provider.count("delete") == 0)
        }
    }

    @Test("a guest deletion that fails is retried, with backoff, until the backend confirms")
    func deletionRetried() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            let (guest, _, merge) = try await mergeGuest(harness, &events)
            await harness.provider.failNext("delete", with: .unavailable(status: 503))
            await harness.provider.failNext("delete", with: .unavailable(status: 503))
            let state = try await harness.service.accounts.completeMerge(mergeId: merge.mergeId)
            #expect(state.pendingMerges.isEmpty)
            #expect(await harness.store.stored?.pendingDeletions.map(\.uid) == [guest])
            try await eventually {
                harness.clock.advance(by: .seconds(1))
                return await harness.provider.accounts[guest] == nil
            }
            #expect(await harness.provider.count("delete") == 3)
            #expect(await harness.store.stored?.pendingDeletions == [])
        }
    }
}
