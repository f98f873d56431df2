import Foundation
import SesameCore
import SesameService
import SesameTesting
import Testing

/// The service over the provider-neutral port: sign-in proofs, server-side sign-out, backends
/// that cannot do something, and rate limits with a retry-after.
@Suite("SessionService: provider-neutral port")
struct ProviderNeutralServiceTests {
    @Test("without email, a link sent to another address than the remembered one is missing-email")
    func linkForAnotherAddress() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            _ = try await next(&events) { $0.reason == .anonymousCreated }
            _ = try await harness.service.accounts.sendSignInLink(email: "eve@example.com", continueUrl: nil)
            let eveLink = try #require(await harness.provider.lastSignInProof(for: "eve@example.com"))
            _ = try await harness.service.accounts.sendSignInLink(email: "ann@example.com", continueUrl: nil)
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.accounts.completeSignInLink(eveLink, email: nil)
                } == .missingEmail)
            // With the address it was sent to, the link works.
            let outcome = try await harness.service.accounts.completeSignInLink(eveLink, email: "eve@example.com")
            #expect(outcome.state.user?.email == "eve@example.com")
        }
    }

    @Test("a one-time code completes the sign-in where the backend sends codes")
    func codeProof() async throws {
        let harness = ServiceHarness(sendsCodes: true)
        try await harness.run { events in
            let guest = try await next(&events) { $0.reason == .anonymousCreated }.state.user?.uid
            _ = try await harness.service.accounts.sendSignInLink(email: "ann@example.com", continueUrl: nil)
            let code = try #require(await harness.provider.lastSignInProof(for: "ann@example.com"))
            guard case .code = code else { throw TimedOut() }
            let outcome = try await harness.service.accounts.completeSignInLink(code, email: nil)
            #expect(outcome.state.user?.uid == guest && outcome.state.status == .authenticated)
        }
    }

    @Test("a code on a backend without codes is operation-not-allowed, before anything is spent")
    func codeWithoutCodes() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            _ = try await next(&events) { $0.reason == .anonymousCreated }
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.accounts.completeSignInLink(.code("123456"), email: "ann@example.com")
                }
                    == .operationNotAllowed)
            #expect(await harness.provider.count("signInWithEmailLink") == 0)
            #expect(await harness.provider.count("createAuthUri") == 0)
        }
    }

    @Test("signing out of an account ends its session at the backend")
    func signOutRevokes() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            _ = try await next(&events) { $0.reason == .anonymousCreated }
            let account = try #require(
                try await harness.service.accounts.createAccount(email: "ann@example.com", password: "secret1").user)
            _ = try await harness.service.accounts.signOut(reset: false)
            #expect(await harness.provider.revokedSessions == [account.uid])
            #expect(await harness.store.stored?.pendingRevocations == [])
        }
    }

    @Test("offline, the session to end stays on the durable to-do list and is ended once back")
    func revocationRetried() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            _ = try await next(&events) { $0.reason == .anonymousCreated }
            let account = try #require(
                try await harness.service.accounts.createAccount(email: "ann@example.com", password: "secret1").user)
            await harness.provider.failNext("revokeSession", with: .transport("offline (test)"))
            _ = try await harness.service.accounts.signOut(reset: false)
            #expect(await harness.store.stored?.pendingRevocations.map(\.uid) == [account.uid])
            #expect(await harness.provider.revokedSessions.isEmpty)
            // The maintenance loop retries after its backoff.
            try await eventually {
                harness.clock.advance(by: .seconds(60))
                return await harness.store.stored?.pendingRevocations.isEmpty == true
            }
            #expect(await harness.provider.revokedSessions == [account.uid])
        }
    }

    @Test("a guest the backend cannot delete is signed out at the backend and dropped, not retried")
    func unsupportedDeletion() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            let guest = try #require(try await next(&events) { $0.reason == .anonymousCreated }.state.user?.uid)
            await harness.provider.failNext("delete", with: .unsupported("Deploy the delete function (test)."))
            _ = try await harness.service.accounts.signOut(reset: true)
            #expect(await harness.provider.revokedSessions == [guest])
            #expect(await harness.store.stored?.pendingDeletions == [])
            #expect(await harness.provider.count("delete") == 1)
        }
    }

    @Test("signInWithIdp answers with the state after the sign-in: from a guest into an existing account, merged")
    func idpAnswerIsTheFlowsResult() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            let guest = try #require(try await next(&events) { $0.reason == .anonymousCreated }.state.user?.uid)
            let account = await harness.provider.addFederatedAccount(providerId: "google.com", idToken: "g-ann")
            let outcome = try await harness.service.accounts.signInWithIdp(
                providerId: "google.com", idToken: "g-ann", accessToken: nil)
            #expect(outcome.state.user?.uid == account)
            #expect(outcome.state.status == .authenticated)
            #expect(outcome.merge?.fromUid == guest && outcome.merge?.toUid == account)
            #expect(outcome.state.pendingMerges.map(\.mergeId) == [outcome.merge?.mergeId].compactMap { $0 })
            #expect(outcome.state.sequence == (await harness.service.state).sequence)
        }
    }

    @Test("a new federated identity is linked to the guest in place (uid kept)")
    func idpLinksGuest() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            let guest = try #require(try await next(&events) { $0.reason == .anonymousCreated }.state.user?.uid)
            let outcome = try await harness.service.accounts.signInWithIdp(
                providerId: "google.com", idToken: "g-new", accessToken: nil)
            #expect(outcome.state.user?.uid == guest && outcome.merge == nil)
            #expect(outcome.state.user?.providers == ["google.com"])
        }
    }

    @Test("the anonymous user is not retried before a rate limit's retry-after has passed")
    func anonymousWaitsOutRateLimit() async throws {
        let harness = ServiceHarness()
        await harness.provider.failNext("signUp", with: .rateLimited(retryAfterMs: 60_000))
        try await harness.run { events in
            // The failed attempt plans its retry in the future.
            try await eventually { await harness.service.nextPlannedWork.map { $0 > harness.clock.date } == true }
            let planned = try #require(await harness.service.nextPlannedWork)
            #expect(planned.timeIntervalSince(harness.clock.date) >= 59.9)
            #expect(await harness.provider.count("signUp") == 1)
            // The retry comes after retry-after and at most a fifth later (MaintenancePlan.spread).
            harness.clock.advance(by: .seconds(60 * (1 + MaintenancePlan.retryAfterSpread)))
            _ = try await next(&events) { $0.reason == .anonymousCreated }
            #expect(await harness.provider.count("signUp") == 2)
        }
    }

    @Test("a rate limit's retry-after reaches the caller; 5000 ms when the backend gave none")
    func retryAfter() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            _ = try await next(&events) { $0.reason == .anonymousCreated }
            await harness.provider.failNext("sendPasswordReset", with: .rateLimited(retryAfterMs: 1234))
            await harness.provider.failNext("sendPasswordReset", with: .rateLimited(retryAfterMs: nil))
            for expected in [1234, 5000] {
                do {
                    try await harness.service.accounts.sendPasswordReset(identifier: "ann@example.com")
                    Issue.record("no rate limit")
                } catch let error as AuthError {
                    #expect(error.reason == .tooManyRequests && error.retryAfterMs == expected)
                }
            }
        }
    }
}

/// The reason `body` failed with; nil when it succeeded.
func failure(_ body: () async throws(AuthError) -> Void) async -> AuthError.Reason? {
    do {
        try await body()
        return nil
    } catch {
        return error.reason
    }
}
