import Foundation
import SesameCore
import SesameService
import SesameTesting
import Testing

/// A confirmed address change seen by the daemon before anyone asked: Firebase ends the
/// account's sessions at the confirmation, so the held session is checked with the backend
/// then, and a forced refresh reads the profile before it answers (a confirmation cannot
/// overtake a read made in a task of its own: the race a loaded `make test` showed).
@Suite("SessionService: an address change confirmed while the session is held")
struct EmailChangeConfirmationTests {
    /// The address change to new@example.com started here and confirmed at the backend.
    static func changeConfirmedAtTheBackend(_ harness: SecurityHarness, _ uid: String) async throws {
        _ = try await harness.service.accounts.changeEmail(newEmail: "new@example.com")
        await harness.provider.confirmEmailChange(uid: uid)
    }

    @Test(
        "a reload that finds the change confirmed checks the session: ended there, credentials-changed, the address kept to name it"
    )
    func reloadFindsItEnded() async throws {
        let harness = SecurityHarness()
        try await harness.run { events, uid in
            try await Self.changeConfirmedAtTheBackend(harness, uid)
            // Firebase revokes the account's refresh tokens at the confirmation.
            await harness.provider.failNext("refresh", with: .accountGone(.credentialsChanged))
            let refreshes = await harness.provider.count("refresh")
            _ = try await harness.service.accounts.reload()
            #expect(await harness.provider.count("refresh") == refreshes + 1)
            let ended = try await next(&events) { $0.reason != nil }
            #expect(ended.kind == .authStateChanged(previousUid: uid, reason: .credentialsChanged))
            #expect(await harness.store.stored?.pendingEmails[uid] == "new@example.com")
        }
    }

    @Test("a reload that finds the change confirmed and the session kept (GoTrue): followed, the address forgotten")
    func reloadFindsItKept() async throws {
        let harness = SecurityHarness()
        try await harness.run { _, uid in
            try await Self.changeConfirmedAtTheBackend(harness, uid)
            let state = try await harness.service.accounts.reload()
            #expect(state.user?.uid == uid && state.user?.email == "new@example.com")
            #expect(state.user?.pendingEmail == nil)
            #expect(await harness.store.stored?.pendingEmails[uid] == nil)
        }
    }

    @Test("a forced getIdToken while a change is pending answers after the profile was read and the change followed")
    func forcedRefreshReadsTheProfileFirst() async throws {
        let harness = SecurityHarness()
        try await harness.run { _, uid in
            try await Self.changeConfirmedAtTheBackend(harness, uid)
            let lookups = await harness.provider.count("lookup")
            let token = try await harness.service.tokens.idToken(forceRefresh: true)
            #expect(token.uid == uid)
            // Nothing awaited since: the answer came after the read, not before a task did it.
            #expect(await harness.provider.count("lookup") == lookups + 1)
            let state = await harness.service.state
            #expect(state.user?.email == "new@example.com" && state.user?.pendingEmail == nil)
            #expect(await harness.store.stored?.pendingEmails[uid] == nil)
        }
    }

    @Test("a forced getIdToken with no change pending reads no profile")
    func forcedRefreshWithoutChange() async throws {
        let harness = SecurityHarness()
        try await harness.run { _, _ in
            let lookups = await harness.provider.count("lookup")
            _ = try await harness.service.tokens.idToken(forceRefresh: true)
            #expect(await harness.provider.count("lookup") == lookups)
        }
    }
}
