import Foundation
import SesameCore
import SesameService
import SesameTesting
import Testing

/// The daemon's bound on second-factor guesses (issue 31, item 3) with time moved by hand: the
/// lockout after five wrong codes ends, wrong codes count across challenges, a right code
/// clears them; `cancelSignIn` with the challenge's id ends it (item 11).
@Suite("SessionService: second-factor guesses bounded")
struct SecondFactorGuessServiceTests {
    /// A code the fake factor refuses now.
    static func wrong(_ harness: SignInFlowHarness) -> String {
        harness.code() == "000000" ? "111111" : "000000"
    }

    static func reason(_ body: () async throws(AuthError) -> Void) async -> AuthError? {
        do throws(AuthError) {
            try await body()
            return nil
        } catch {
            return error
        }
    }

    @Test("five wrong codes in a row: the challenge ends; a sign-in is refused until the lockout ends, then opens one")
    func lockoutEnds() async throws {
        let harness = SignInFlowHarness()
        try await harness.run { _ in
            var challenge = try await harness.passwordChallenge()
            for attempt in 1...5 {
                let error = await Self.reason { () async throws(AuthError) in
                    _ = try await harness.service.secondFactors.verify(
                        challengeId: challenge.challengeId, code: Self.wrong(harness), factorId: nil)
                }
                if attempt < 5 {
                    #expect(error?.reason == .invalidVerificationCode)
                } else {
                    #expect(error?.reason == .tooManyRequests && error?.retryAfterMs == 30_000)
                }
            }
            #expect(await harness.service.state.secondFactor == nil)
            let refused = await Self.reason { () async throws(AuthError) in
                _ = try await harness.service.accounts.signIn(identifier: "ann@example.com", password: "secret1")
            }
            #expect(refused?.reason == .tooManyRequests && refused?.retryAfterMs == 30_000)
            #expect(await harness.service.state.secondFactor == nil)

            harness.clock.advance(by: .seconds(30))
            challenge = try await harness.challenge { () async throws(AuthError) in
                _ = try await harness.service.accounts.signIn(identifier: "ann@example.com", password: "secret1")
            }
            // Four wrong codes, then a new sign-in: one try left, not five.
            for _ in 1...4 {
                _ = await Self.reason { () async throws(AuthError) in
                    _ = try await harness.service.secondFactors.verify(
                        challengeId: challenge.challengeId, code: Self.wrong(harness), factorId: nil)
                }
            }
            challenge = try await harness.challenge { () async throws(AuthError) in
                _ = try await harness.service.accounts.signIn(identifier: "ann@example.com", password: "secret1")
            }
            let last = await Self.reason { () async throws(AuthError) in
                _ = try await harness.service.secondFactors.verify(
                    challengeId: challenge.challengeId, code: Self.wrong(harness), factorId: nil)
            }
            // The second lockout is twice as long.
            #expect(last?.reason == .tooManyRequests && last?.retryAfterMs == 60_000)

            harness.clock.advance(by: .seconds(60))
            challenge = try await harness.challenge { () async throws(AuthError) in
                _ = try await harness.service.accounts.signIn(identifier: "ann@example.com", password: "secret1")
            }
            let outcome = try await harness.service.secondFactors.verify(
                challengeId: challenge.challengeId, code: harness.code(), factorId: nil)
            #expect(outcome.state.status == .authenticated)
        }
    }

    @Test("cancelSignIn with the open challenge's id ends it (userUpdated); another id changes nothing")
    func cancellingTheChallenge() async throws {
        let harness = SignInFlowHarness()
        try await harness.run { events in
            let challenge = try await harness.passwordChallenge()
            _ = try await next(&events) { $0.kind == .userUpdated && $0.state.secondFactor != nil }
            #expect(await harness.service.secondFactors.cancel("not-it") == false)
            #expect(await harness.service.state.secondFactor == challenge)
            try await harness.service.signIn.cancel(flowId: challenge.challengeId)
            #expect(await harness.service.state.secondFactor == nil)
            let closed = try await next(&events) { $0.kind == .userUpdated }
            #expect(closed.state.secondFactor == nil)
            let gone = await Self.reason { () async throws(AuthError) in
                try await harness.service.signIn.cancel(flowId: challenge.challengeId)
            }
            #expect(gone?.reason == .expiredSignInFlow)
        }
    }
}
