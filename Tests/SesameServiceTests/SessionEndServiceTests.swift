import Foundation
import SesameCore
import SesameService
import SesameTesting
import Testing

/// Issue 31, items 6 and 12: a session the backend ended because the password or the email
/// address changed says so (`credentials-changed`) and what to do, instead of blaming a deleted,
/// disabled or signed-out account.
@Suite("SessionService: why a session ended")
struct SessionEndServiceTests {
    @Test(
        "a refresh refused because the credentials changed (Firebase's TOKEN_EXPIRED): credentials-changed, the error and the authStateChanged"
    )
    func credentialsChanged() async throws {
        let harness = SecurityHarness()
        try await harness.run { events, uid in
            await harness.provider.failNext("refresh", with: .accountGone(.credentialsChanged))
            do throws(AuthError) {
                _ = try await harness.service.tokens.idToken(forceRefresh: true)
                Issue.record("the refresh succeeded")
            } catch {
                #expect(error.reason == .credentialsChanged)
                #expect(error.message.contains("password or email address changed"))
                #expect(!error.message.contains("deleted"))
            }
            let ended = try await next(&events) { $0.reason != nil }
            #expect(ended.reason == .credentialsChanged)
            #expect(ended.kind == .authStateChanged(previousUid: uid, reason: .credentialsChanged))
        }
    }

    @Test("any other refusal of the refresh token stays session-revoked")
    func otherRefusals() async throws {
        let harness = SecurityHarness()
        try await harness.run { events, _ in
            await harness.provider.failNext("refresh", with: .accountGone(.sessionRevoked))
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.tokens.idToken(forceRefresh: true)
                }
                    == .sessionRevoked)
            let ended = try await next(&events) { $0.reason != nil }
            #expect(ended.reason == .sessionRevoked)
        }
    }

    @Test(
        "a confirmed address change that ended the session: credentials-changed naming the new address; signing in with it is not refused"
    )
    func confirmedEmailChange() async throws {
        let harness = SecurityHarness()
        try await harness.run { events, uid in
            _ = try await harness.service.accounts.changeEmail(newEmail: "new@example.com")
            await harness.provider.confirmEmailChange(uid: uid)
            // Firebase revokes the account's refresh tokens at the confirmation.
            await harness.provider.failNext("refresh", with: .accountGone(.credentialsChanged))
            do throws(AuthError) {
                _ = try await harness.service.tokens.idToken(forceRefresh: true)
                Issue.record("the refresh succeeded")
            } catch {
                #expect(error.reason == .credentialsChanged)
                #expect(error.email == "new@example.com")
                #expect(error.message.contains("changed to new@example.com"))
                #expect(error.message.contains("sign in with it"))
            }
            #expect(try await next(&events) { $0.reason != nil }.reason == .credentialsChanged)
            let outcome = try await harness.service.accounts.signIn(identifier: "new@example.com", password: "secret1")
            #expect(outcome.state.user?.uid == uid && outcome.state.user?.email == "new@example.com")
            #expect(await harness.store.stored?.pendingEmails[uid] == nil, "the remembered change finished")
        }
    }

    @Test(
        "while an address change is pending, a sign-in first checks the held session: one the backend ended lets the sign-in through"
    )
    func signInAfterConfirmationNotRefused() async throws {
        let harness = SecurityHarness()
        try await harness.run { _, uid in
            _ = try await harness.service.accounts.changeEmail(newEmail: "new@example.com")
            await harness.provider.confirmEmailChange(uid: uid)
            await harness.provider.failNext("refresh", with: .accountGone(.credentialsChanged))
            // Still shown signed in: nothing has reached the backend since the confirmation.
            #expect(await harness.service.state.status == .authenticated)
            let outcome = try await harness.service.accounts.signIn(identifier: "new@example.com", password: "secret1")
            #expect(outcome.state.user?.uid == uid && outcome.state.user?.email == "new@example.com")
        }
    }

    @Test(
        "confirmPasswordReset of the account signed in here: the session is checked at once; ended (credentials-changed) when the backend refuses it, kept when it does not"
    )
    func passwordResetOfTheSignedInAccount() async throws {
        let harness = SecurityHarness()
        try await harness.run { events, uid in
            try await harness.service.accounts.sendPasswordReset(identifier: "ann@example.com")
            let first = try #require(await harness.provider.lastPasswordReset(for: "ann@example.com"))
            let refreshes = await harness.provider.count("refresh")
            _ = try await harness.service.security.confirmPasswordReset(first, email: nil, newPassword: "secret9")
            #expect(await harness.provider.count("refresh") == refreshes + 1)
            #expect(await harness.service.state.user?.uid == uid, "a session the backend keeps stays")

            try await harness.service.accounts.sendPasswordReset(identifier: "ann@example.com")
            let second = try #require(await harness.provider.lastPasswordReset(for: "ann@example.com"))
            // GoTrue ends the account's other sessions: its answer is a plain session_not_found.
            await harness.provider.failNext("refresh", with: .accountGone(.sessionRevoked))
            _ = try await harness.service.security.confirmPasswordReset(second, email: nil, newPassword: "secret8")
            #expect(await harness.service.state.user == nil)
            #expect(try await next(&events) { $0.reason != nil }.reason == .credentialsChanged)
        }
    }
}
