import Foundation
import SesameCore
import SesameService
import SesameTesting
import Testing

/// Upgrade paths whose logic is the service's alone, on the fake backend (moved down from the
/// end-to-end tests, which keep the ones that need the real backend, sesamectl or a process).
@Suite("SessionService: upgrade paths")
struct UpgradeServiceTests {
    @Test("signIn from an account replaces it (signed-in, no merge); the old account stays, its session is ended")
    func signInReplacesAccount() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            _ = try await next(&events) { $0.reason == .anonymousCreated }
            let second = await harness.provider.addAccount(email: "two@example.com", password: "secret12")
            let first = try #require(
                try await harness.service.accounts.createAccount(email: "one@example.com", password: "secret12").user?
                    .uid)
            let outcome = try await harness.service.accounts.signIn(identifier: "two@example.com", password: "secret12")
            #expect(outcome.merge == nil)
            #expect(outcome.state.user?.uid == second && outcome.state.pendingMerges.isEmpty)
            #expect(try await next(&events) { $0.reason != nil && $0.reason != .linked }.reason == .signedIn)
            #expect(await harness.provider.accounts[first] != nil)
            // Ended in the background, from the durable cleanup list.
            try await eventually { await harness.provider.revokedSessions == [first] }
        }
    }

    @Test(
        "createAccount or signInAnonymously with an account signed in: already-signed-in; deleteAccount of a guest deletes it"
    )
    func stateErrorsAndGuestDeletion() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            let guest = try #require(try await next(&events) { $0.reason == .anonymousCreated }.state.user?.uid)
            let deleted = try await harness.service.accounts.deleteAccount()
            let second = try #require(deleted.user?.uid)
            #expect(second != guest && deleted.status == .anonymous)
            #expect(await harness.provider.accounts[guest] == nil)

            _ = try await harness.service.accounts.createAccount(email: "ste@example.com", password: "secret12")
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.accounts.createAccount(
                        email: "other@example.com", password: "secret12")
                } == .alreadySignedIn)
            #expect(
                await failure { () async throws(AuthError) in _ = try await harness.service.accounts.signInAnonymously()
                }
                    == .alreadySignedIn)
            #expect(await harness.service.state.user?.uid == second)
        }
    }

    @Test("linkCredential(emailLink) without an email and nothing remembered: missing-email; with the email it links")
    func linkEmailLinkMissingEmail() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            let guest = try #require(try await next(&events) { $0.reason == .anonymousCreated }.state.user?.uid)
            // Sent by someone else (not through this daemon): no address is remembered.
            try await harness.provider.sendSignInLink(email: "ela@example.com", continueUrl: nil)
            guard case .link(let link) = try #require(await harness.provider.lastSignInProof(for: "ela@example.com"))
            else {
                Issue.record("the fake sent no link")
                return
            }
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.accounts.linkCredential(.emailLink(email: "", link: link))
                } == .missingEmail)
            let state = try await harness.service.accounts.linkCredential(
                .emailLink(email: "ela@example.com", link: link))
            #expect(
                state.user?.uid == guest && state.user?.email == "ela@example.com" && state.user?.isAnonymous == false)
        }
    }

    @Test(
        "linkCredential(emailLink) to an address another account has: email-already-in-use, the link not spent; it then signs in"
    )
    func linkEmailLinkTakenAddress() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            let guest = try #require(try await next(&events) { $0.reason == .anonymousCreated }.state.user?.uid)
            let owner = await harness.provider.addAccount(email: "own@example.com", password: "secret12")
            _ = try await harness.service.accounts.sendSignInLink(email: "own@example.com", continueUrl: nil)
            let proof = try #require(await harness.provider.lastSignInProof(for: "own@example.com"))
            guard case .link(let link) = proof else {
                Issue.record("the fake sent no link")
                return
            }
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.accounts.linkCredential(.emailLink(email: "", link: link))
                } == .emailAlreadyInUse)
            #expect(await harness.provider.count("signInWithEmailLink") == 0)
            #expect(await harness.service.state.user?.uid == guest)
            let outcome = try await harness.service.accounts.completeSignInLink(proof, email: nil)
            #expect(outcome.state.user?.uid == owner && outcome.merge?.fromUid == guest)
        }
    }
}
