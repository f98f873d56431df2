import Foundation
import SesameCore
import SesameService
import SesameTesting
import Testing

/// Second factors at sign-in on the fake backend (its TOTP-like codes), time moved by hand:
/// every way in opens the one challenge, and `completeSecondFactor` finishes it as the first
/// call would have (a merge from a guest included).
@Suite("SessionService: second factors at sign-in")
struct SecondFactorServiceTests {
    @Test("password from a guest: the challenge is shown, nothing changes; the code merges the guest")
    func passwordFromGuestMerges() async throws {
        let harness = SignInFlowHarness()
        try await harness.run { events in
            let guest = try #require(await harness.service.state.user)
            let owner = await harness.provider.addAccount(email: "ann@example.com", password: "secret1")
            let factorId = await harness.provider.addTotpFactor(uid: owner)
            let challenge = try await harness.challenge { () async throws(AuthError) in
                _ = try await harness.service.accounts.signIn(identifier: "ann@example.com", password: "secret1")
            }
            #expect(challenge.factors.map(\.factorId) == [factorId])
            #expect(challenge.expiresAt == harness.clock.date.addingTimeInterval(300))
            let opened = try await next(&events) { $0.kind == .userUpdated }
            #expect(opened.state.secondFactor == challenge && opened.state.user == guest)
            let during = await harness.service.state
            #expect(during.user == guest && during.status == .anonymous)

            let outcome = try await harness.service.secondFactors.verify(
                challengeId: challenge.challengeId, code: harness.code(), factorId: nil)
            #expect(outcome.state.user?.uid == owner && outcome.merge?.fromUid == guest.uid)
            #expect(outcome.state.secondFactor == nil && outcome.state.status == .authenticated)
            let rest = try await collect(&events) { $0.reason == .merged }
            #expect(rest.first?.kind == .userUpdated && rest.first?.state.secondFactor == nil)
            #expect(rest.first?.state.user == guest, "the challenge closes before the sign-in is adopted")
        }
    }

    @Test("an email link from a guest: merged through the second factor, the remembered address forgotten")
    func emailLinkFromGuest() async throws {
        let harness = SignInFlowHarness()
        try await harness.run { _ in
            let guest = try #require(await harness.service.state.user?.uid)
            let owner = await harness.provider.addAccount(email: "ann@example.com", password: "secret1")
            await harness.provider.addTotpFactor(uid: owner)
            _ = try await harness.service.accounts.sendSignInLink(email: "ann@example.com", continueUrl: nil)
            let proof = try #require(await harness.provider.lastSignInProof(for: "ann@example.com"))
            let challenge = try await harness.challenge { () async throws(AuthError) in
                _ = try await harness.service.accounts.completeSignInLink(proof, email: nil)
            }
            #expect(await harness.store.stored?.emailLinkAddress == "ann@example.com")
            let outcome = try await harness.service.secondFactors.verify(
                challengeId: challenge.challengeId, code: harness.code(), factorId: nil)
            #expect(outcome.merge?.fromUid == guest && outcome.state.user?.uid == owner)
            #expect(await harness.store.stored?.emailLinkAddress == nil)
        }
    }

    @Test("a federated identity of an account with a factor, from a guest: merged through the challenge")
    func federatedFromGuest() async throws {
        let harness = SignInFlowHarness()
        try await harness.run { _ in
            let guest = try #require(await harness.service.state.user?.uid)
            let owner = await harness.provider.addFederatedAccount(providerId: "google.com", idToken: "bob")
            await harness.provider.addTotpFactor(uid: owner)
            let challenge = try await harness.challenge { () async throws(AuthError) in
                _ = try await harness.service.accounts.signInWithIdp(
                    providerId: "google.com", idToken: "bob", accessToken: nil)
            }
            let outcome = try await harness.service.secondFactors.verify(
                challengeId: challenge.challengeId, code: harness.code(), factorId: nil)
            #expect(outcome.merge?.fromUid == guest && outcome.state.user?.uid == owner)
        }
    }

    @Test("a device flow reaching an account with a factor: the waiter gets the challenge; the code merges")
    func deviceFlowFromGuest() async throws {
        let harness = SignInFlowHarness()
        try await harness.run { _ in
            let guest = try #require(await harness.service.state.user?.uid)
            let owner = await harness.provider.addFederatedAccount(providerId: "google.com", idToken: "carol")
            await harness.provider.addTotpFactor(uid: owner)
            let flow = try await harness.service.signIn.start(harness.device())
            await harness.devices.approve(providerId: "google.com", identity: "carol")
            let waiter = harness.waiter(flow.flowId)
            try await harness.advance(5, sleepers: 2)
            guard case .failure(let error) = await waiter.value, let challenge = error.challenge else {
                Issue.record("the flow did not end in second-factor-required")
                return
            }
            #expect(error.reason == .secondFactorRequired)
            #expect(await harness.service.state.secondFactor == challenge)
            #expect(await harness.service.state.user?.uid == guest)
            let outcome = try await harness.service.secondFactors.verify(
                challengeId: challenge.challengeId, code: harness.code(), factorId: nil)
            #expect(outcome.merge?.fromUid == guest && outcome.state.user?.uid == owner)
        }
    }

    @Test("a custom token: merged through the challenge; provisioning gives up at once, the challenge left open")
    func customTokenAndProvisioning() async throws {
        let harness = SignInFlowHarness()
        try await harness.run { _ in
            let guest = try #require(await harness.service.state.user?.uid)
            _ = try await harness.service.signIn.withCustomToken("custom:fleet-1")
            _ = try await harness.service.accounts.signOut(reset: false)
            _ = try await harness.service.accounts.signInAnonymously()
            let guest2 = try #require(await harness.service.state.user?.uid)
            #expect(guest2 != guest)
            await harness.provider.addTotpFactor(uid: "fleet-1")
            let outcome = await harness.service.signIn.provision(customToken: "custom:fleet-1")
            guard case .failed(let error) = outcome, let challenge = error.challenge else {
                Issue.record("provisioning did not fail with the challenge: \(outcome)")
                return
            }
            #expect(error.reason == .secondFactorRequired)
            #expect(await harness.provider.count("signInWithCustomToken") == 2, "never retried")
            let done = try await harness.service.secondFactors.verify(
                challengeId: challenge.challengeId, code: harness.code(), factorId: nil)
            #expect(done.merge?.fromUid == guest2 && done.state.user?.uid == "fleet-1")
        }
    }

    @Test("a wrong code: invalid-verification-code and the challenge stays; a malformed one never reaches the backend")
    func wrongAndMalformedCodes() async throws {
        let harness = SignInFlowHarness()
        try await harness.run { _ in
            let challenge = try await harness.passwordChallenge()
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.secondFactors.verify(
                        challengeId: challenge.challengeId, code: "12345", factorId: nil)
                } == .invalidVerificationCode)
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.secondFactors.verify(
                        challengeId: challenge.challengeId, code: "12345a", factorId: nil)
                } == .invalidVerificationCode)
            #expect(await harness.provider.count("completeSecondFactor") == 0)
            let wrong = harness.code() == "000000" ? "111111" : "000000"
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.secondFactors.verify(
                        challengeId: challenge.challengeId, code: wrong, factorId: nil)
                } == .invalidVerificationCode)
            #expect(await harness.service.state.secondFactor == challenge)
            let outcome = try await harness.service.secondFactors.verify(
                challengeId: challenge.challengeId, code: harness.code(), factorId: nil)
            #expect(outcome.state.status == .authenticated)
        }
    }

    @Test("the backend down between the factors: a 2000 error, the challenge kept, the retry signs in")
    func backendDownBetweenFactors() async throws {
        let harness = SignInFlowHarness()
        try await harness.run { _ in
            let guest = await harness.service.state.user
            let challenge = try await harness.passwordChallenge()
            await harness.provider.failNext("completeSecondFactor", with: .transport("down"))
            let error = await failure { () async throws(AuthError) in
                _ = try await harness.service.secondFactors.verify(
                    challengeId: challenge.challengeId, code: harness.code(), factorId: nil)
            }
            #expect(error == .networkRequestFailed)
            let kept = await harness.service.state
            #expect(kept.secondFactor == challenge && kept.user == guest)
            let outcome = try await harness.service.secondFactors.verify(
                challengeId: challenge.challengeId, code: harness.code(), factorId: nil)
            #expect(outcome.merge?.fromUid == guest?.uid)
        }
    }

    @Test("expiry on the clock closes the challenge (userUpdated); then expired-sign-in-flow")
    func expiry() async throws {
        let harness = SignInFlowHarness()
        try await harness.run { events in
            let guest = await harness.service.state.user
            let challenge = try await harness.passwordChallenge()
            _ = try await next(&events) { $0.kind == .userUpdated && $0.state.secondFactor != nil }
            try await harness.advance(300)
            let closed = try await next(&events) { $0.kind == .userUpdated }
            #expect(closed.state.secondFactor == nil && closed.state.user == guest)
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.secondFactors.verify(
                        challengeId: challenge.challengeId, code: harness.code(), factorId: nil)
                } == .expiredSignInFlow)
            #expect(await harness.provider.count("completeSecondFactor") == 0)
        }
    }

    @Test("a replayed, unknown or replaced challenge id: expired-sign-in-flow; a new sign-in replaces the old")
    func replayAndReplace() async throws {
        let harness = SignInFlowHarness()
        try await harness.run { _ in
            let first = try await harness.passwordChallenge()
            let second = try await harness.challenge { () async throws(AuthError) in
                _ = try await harness.service.accounts.signIn(identifier: "ann@example.com", password: "secret1")
            }
            #expect(first.challengeId != second.challengeId)
            #expect(await harness.service.state.secondFactor == second)
            for id in [first.challengeId, "no-such-challenge"] {
                #expect(
                    await failure { () async throws(AuthError) in
                        _ = try await harness.service.secondFactors.verify(
                            challengeId: id, code: harness.code(), factorId: nil)
                    } == .expiredSignInFlow)
            }
            _ = try await harness.service.secondFactors.verify(
                challengeId: second.challengeId, code: harness.code(), factorId: nil)
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.secondFactors.verify(
                        challengeId: second.challengeId, code: harness.code(), factorId: nil)
                } == .expiredSignInFlow)
        }
    }

    @Test("a restart between the factors: the challenge is gone, the guest intact")
    func restartDropsTheChallenge() async throws {
        let store = InMemorySessionStore()
        let harness = SignInFlowHarness(store: store)
        var guest: User?
        var challengeId = ""
        try await harness.run { _ in
            guest = await harness.service.state.user
            challengeId = try await harness.passwordChallenge().challengeId
        }
        let restarted = SignInFlowHarness(store: store)
        try await restarted.run(guest: false) { _ in
            #expect(await restarted.service.state.secondFactor == nil)
            #expect(await restarted.service.state.user == guest && guest != nil)
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await restarted.service.secondFactors.verify(
                        challengeId: challengeId, code: "123456", factorId: nil)
                } == .expiredSignInFlow)
        }
    }

    @Test("reauthenticate with a password through the challenge: the same uid, no merge")
    func reauthenticationThroughTheChallenge() async throws {
        let harness = SignInFlowHarness()
        try await harness.run(guest: false) { _ in
            let uid = await harness.provider.addAccount(email: "ann@example.com", password: "secret1")
            _ = try await harness.service.accounts.signIn(identifier: "ann@example.com", password: "secret1")
            await harness.provider.addTotpFactor(uid: uid)
            let challenge = try await harness.challenge { () async throws(AuthError) in
                _ = try await harness.service.security.reauthenticate(.password("secret1"))
            }
            let outcome = try await harness.service.secondFactors.verify(
                challengeId: challenge.challengeId, code: harness.code(), factorId: nil)
            #expect(outcome.merge == nil && outcome.state.user?.uid == uid)
        }
    }
}

extension SignInFlowHarness {
    /// The challenge `body` failed with (`second-factor-required`).
    func challenge(_ body: () async throws(AuthError) -> Void) async throws -> SecondFactorChallenge {
        do throws(AuthError) {
            try await body()
        } catch {
            #expect(error.reason == .secondFactorRequired)
            return try #require(error.challenge)
        }
        Issue.record("no second-factor-required")
        throw TimedOut()
    }

    /// An account `ann@example.com` with a factor, and the challenge of its password sign-in.
    func passwordChallenge() async throws -> SecondFactorChallenge {
        let owner = await provider.addAccount(email: "ann@example.com", password: "secret1")
        await provider.addTotpFactor(uid: owner)
        return try await challenge { () async throws(AuthError) in
            _ = try await service.accounts.signIn(identifier: "ann@example.com", password: "secret1")
        }
    }

    /// The current code of the fake factor secret.
    func code(_ secret: String = "FAKESECRET") -> String {
        FakeRemoteAuthProvider.code(secret: secret, at: clock.date)
    }
}
