import Foundation
import SesameCore
import Testing

private let t0 = Date(timeIntervalSince1970: 1_800_000_000)
private let totp = SecondFactor(factorId: "f1")
private let pending = PendingSecondFactor(uid: "a", email: nil, factors: [totp], credential: "pending-secret")
private let challenge = SecondFactorChallenge(challengeId: "c1", factors: [totp], expiresAt: t0.addingTimeInterval(300))
private let busy = AuthError(
    .operationInProgress,
    message:
        "A sign-in on this machine waits for a second-factor code: only a manager may replace it. Try again when it is finished."
)

/// Nothing of a challenge is written: a crash at any row leaves the keyring as it was (the
/// first factor changed nothing) and the challenge gone; the person signs in again.
@Suite("SecondFactorChallengeOpening: a sign-in that meets a second factor, its steps and crash points")
struct SecondFactorChallengeOpeningTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var replacing = true
        var steps: [(SecondFactorChallengeOpening.Event, SecondFactorChallengeOpening.Action)]
        var testDescription: String { name }
    }

    @Test(
        "each event gives the right next action",
        arguments: [
            Case(name: "no second factor: the sign-in's answer stands", steps: [(.signedIn, .done)]),
            Case(
                name: "another refusal: the error as it is",
                steps: [(.failed(AuthError(.invalidCredential)), .fail(AuthError(.invalidCredential)))]),
            Case(
                name: "a second factor: the challenge opens and the call fails with it",
                steps: [
                    (.failed(AuthError(.secondFactorRequired).carrying(pending)), .inspect),
                    (.inspected(lockoutLeft: nil, challengeOpen: true), .open(pending)),
                    (.opened(challenge), .fail(AuthError(.secondFactorRequired, challenge: challenge))),
                ]),
            Case(
                name: "wrong codes locked challenges out: refused for the time left",
                steps: [
                    (.failed(AuthError(.secondFactorRequired).carrying(pending)), .inspect),
                    (.inspected(lockoutLeft: 30, challengeOpen: false), .lockedOut(30)),
                ]),
            Case(
                name: "another challenge open and the caller may not replace it: operation-in-progress",
                replacing: false,
                steps: [
                    (.failed(AuthError(.secondFactorRequired).carrying(pending)), .inspect),
                    (.inspected(lockoutLeft: nil, challengeOpen: true), .fail(busy)),
                ]),
            Case(
                name: "none open: a caller that may not replace opens it", replacing: false,
                steps: [
                    (.failed(AuthError(.secondFactorRequired).carrying(pending)), .inspect),
                    (.inspected(lockoutLeft: nil, challengeOpen: false), .open(pending)),
                ]),
            Case(
                name: "an error that already has its challenge passes through",
                steps: [
                    (
                        .failed(AuthError(.secondFactorRequired, challenge: challenge)),
                        .fail(AuthError(.secondFactorRequired, challenge: challenge))
                    )
                ]),
            Case(
                name: "crash after the first factor, before the challenge opened: nothing written",
                steps: [(.failed(AuthError(.secondFactorRequired).carrying(pending)), .inspect)]),
        ])
    func steps(_ c: Case) {
        var job = SecondFactorChallengeOpening(replacing: c.replacing)
        #expect(job.start() == .signIn)
        for (event, expected) in c.steps {
            let action = job.handle(event)
            #expect(action == expected)
            if case .fail(let error) = action { #expect(error.pendingSecondFactor == nil) }
        }
    }

    @Test("the pending sign-in rides in the error, never compared or printed")
    func carried() {
        let error = AuthError(.secondFactorRequired).carrying(pending)
        #expect(error.pendingSecondFactor == pending)
        #expect(error == AuthError(.secondFactorRequired))
        #expect(!"\(error)".contains("pending-secret"))
        #expect(RemoteAuthError.secondFactorRequired(pending).authError.pendingSecondFactor == pending)
    }
}
