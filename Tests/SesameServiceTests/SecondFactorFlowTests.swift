import Foundation
import Logging
import SesameCore
import SesameService
import SesameTesting
import Testing

/// The rest of the ways through a second factor: the browser flow, a federated
/// reauthentication, and an address change that shows after a token refresh.
@Suite("SessionService: second factors in browser flows and reauthentication, address changes at refresh")
struct SecondFactorFlowTests {
    @Test("a browser flow reaching an account with a factor: the challenge, then a merge from the guest")
    func browserFlowFromGuest() async throws {
        let harness = SignInFlowHarness()
        try await harness.run { _ in
            let guest = try #require(await harness.service.state.user?.uid)
            let owner = await harness.provider.addFederatedAccount(providerId: "google.com", idToken: "ivan")
            await harness.provider.addTotpFactor(uid: owner)
            let flow = try await harness.service.signIn.start(harness.browser())
            let callback = try await harness.callback(identity: "ivan")
            let challenge = try await harness.challenge { () async throws(AuthError) in
                _ = try await harness.service.signIn.complete(flowId: flow.flowId, callbackUrl: callback)
            }
            #expect(await harness.service.state.user?.uid == guest)
            let outcome = try await harness.service.secondFactors.verify(
                challengeId: challenge.challengeId, code: harness.code(), factorId: challenge.factors.first?.factorId)
            #expect(outcome.merge?.fromUid == guest && outcome.state.user?.uid == owner)
        }
    }

    @Test("a federated reauthentication through the challenge: the same account, no merge; another is refused")
    func federatedReauthentication() async throws {
        let harness = SignInFlowHarness()
        try await harness.run(guest: false) { _ in
            let signedIn = try await harness.service.accounts.signInWithIdp(
                providerId: "google.com", idToken: "jane", accessToken: nil)
            let uid = try #require(signedIn.state.user?.uid)
            await harness.provider.addTotpFactor(uid: uid)
            let other = await harness.provider.addFederatedAccount(providerId: "google.com", idToken: "kim")
            await harness.provider.addTotpFactor(uid: other)

            for (identity, expectedUid) in [("jane", uid), ("kim", nil)] as [(String, String?)] {
                let flow = try await harness.service.signIn.start(harness.device(purpose: .reauthenticate))
                await harness.devices.approve(providerId: "google.com", identity: identity)
                let waiter = harness.waiter(flow.flowId)
                try await harness.advance(5, sleepers: 2)
                guard case .failure(let error) = await waiter.value, let challenge = error.challenge else {
                    Issue.record("the reauthentication did not open a challenge")
                    return
                }
                do throws(AuthError) {
                    let outcome = try await harness.service.secondFactors.verify(
                        challengeId: challenge.challengeId, code: harness.code(), factorId: nil)
                    #expect(expectedUid != nil && outcome.merge == nil && outcome.state.user?.uid == expectedUid)
                } catch {
                    #expect(expectedUid == nil && error.reason == .invalidCredential)
                }
                #expect(await harness.service.state.user?.uid == uid)
            }
        }
    }

    @Test("an address confirmed elsewhere shows after the next token refresh (userUpdated), and is forgotten")
    func emailChangeShowsAfterRefresh() async throws {
        let harness = SecurityHarness()
        try await harness.run { events, uid in
            _ = try await harness.service.accounts.changeEmail(newEmail: "new@example.com")
            await harness.provider.confirmEmailChange(uid: uid)
            _ = try await harness.service.tokens.idToken(forceRefresh: true)
            let updated = try await next(&events) {
                $0.kind == .userUpdated && $0.state.user?.email == "new@example.com"
            }
            #expect(updated.state.user?.pendingEmail == nil)
            try await eventually("the address is forgotten") { await harness.store.stored?.pendingEmails[uid] == nil }
        }
    }

    @Test("a restart keeps the pending address: the next lookup still shows it")
    func pendingEmailSurvivesRestart() async throws {
        let harness = SecurityHarness()
        var stored: PersistedState?
        try await harness.run { _, _ in
            _ = try await harness.service.accounts.changeEmail(newEmail: "new@example.com")
            stored = await harness.store.stored
        }
        let uid = try #require(stored?.session?.uid)
        #expect(stored?.pendingEmails[uid] == "new@example.com")
        // The keyring's user without the field, as a lookup (Firebase) reports it.
        stored?.session?.user.pendingEmail = nil
        let store = InMemorySessionStore(stored)
        let service = SessionService(
            provider: harness.provider, store: store, clock: harness.clock,
            configuration: SessionServiceConfiguration(anonymousFirst: false),
            logger: .init(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        try await service.start()
        #expect(try await service.accounts.reload().user?.pendingEmail == "new@example.com")
        await service.shutdown()
    }
}
