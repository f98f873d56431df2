import Foundation
import SesameCore
import Testing

private let t0 = Date(timeIntervalSince1970: 1_800_000_000)
private let approval = FederatedCredential(providerId: "google.com", idToken: "person", accessToken: nil)

@Suite("DevicePoll: every answer of an RFC 8628 token endpoint, and what the daemon does next")
struct DevicePollTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var interval: TimeInterval = 5
        /// Seconds after t0 when the flow expires.
        var lifetime: TimeInterval = 600
        var first: DevicePoll.Action = .wait(5)
        /// Each event, the seconds after t0 it happens at, and the action it must produce.
        /// Backoff jitter is 1 (the full step: 2 s, 4 s, 8 s …).
        var steps: [(DevicePoll.Event, TimeInterval, DevicePoll.Action)]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "authorization_pending polls again at the interval",
            steps: [(.woke, 5, .poll), (.answered(.pending), 5, .wait(5)), (.woke, 10, .poll)]),
        Case(
            name: "slow_down without an interval adds 5 s for this and every later poll",
            steps: [
                (.woke, 5, .poll), (.answered(.slowDown(interval: nil)), 5, .wait(10)), (.woke, 15, .poll),
                (.answered(.pending), 15, .wait(10)), (.woke, 25, .poll),
                (.answered(.slowDown(interval: nil)), 25, .wait(15)),
            ]),
        Case(
            name: "slow_down with a longer interval takes it",
            steps: [(.woke, 5, .poll), (.answered(.slowDown(interval: 30)), 5, .wait(30))]),
        Case(
            name: "slow_down with a shorter interval still adds 5 s",
            steps: [(.woke, 5, .poll), (.answered(.slowDown(interval: 6)), 5, .wait(10))]),
        Case(
            name: "access_denied fails the flow with access-denied, and it stays ended",
            steps: [
                (.woke, 5, .poll), (.answered(.denied), 5, .end(.failed, AuthError(.accessDenied))),
                (.woke, 10, .end(.failed, AuthError(.accessDenied))),
            ]),
        Case(
            name: "expired_token expires the flow",
            steps: [(.woke, 5, .poll), (.answered(.expired), 5, .end(.expired, AuthError(.expiredSignInFlow)))]),
        Case(
            name: "an approval signs in",
            steps: [(.woke, 5, .poll), (.answered(.approved(approval)), 5, .signIn(approval))]),
        Case(
            name:
                "the backend down at the approval: the sign-in is tried again with backoff, then succeeds or is refused",
            steps: [
                (.woke, 5, .poll), (.answered(.approved(approval)), 5, .signIn(approval)),
                (.signInFailed(AuthError(.networkRequestFailed)), 5, .wait(2)), (.woke, 7, .signIn(approval)),
                (.signInFailed(AuthError(.backendUnavailable)), 7, .wait(4)), (.woke, 11, .signIn(approval)),
                (.signInFailed(AuthError(.tooManyRequests, retryAfterMs: 30_000)), 11, .wait(30)),
                (.woke, 41, .signIn(approval)),
                (.signInFailed(AuthError(.invalidCredential)), 41, .end(.failed, AuthError(.invalidCredential))),
            ]),
        Case(
            name: "an approval whose sign-in cannot reach the backend before the deadline expires the flow",
            lifetime: 8,
            steps: [
                (.woke, 5, .poll), (.answered(.approved(approval)), 5, .signIn(approval)),
                (.signInFailed(AuthError(.networkRequestFailed)), 5, .wait(2)), (.woke, 7, .signIn(approval)),
                (.signInFailed(AuthError(.networkRequestFailed)), 7, .wait(1)),
                (.woke, 8, .end(.expired, AuthError(.expiredSignInFlow))),
            ]),
        Case(
            name:
                "transient poll failures (transport, 5xx, 429) keep polling, never sooner than the interval; an approval is not lost",
            steps: [
                (.woke, 5, .poll), (.pollFailed(.transport("down")), 5, .wait(5)), (.woke, 10, .poll),
                (.pollFailed(.unavailable(status: 503)), 10, .wait(5)), (.woke, 15, .poll),
                (.pollFailed(.unavailable(status: 502)), 15, .wait(8)), (.woke, 23, .poll),
                (.pollFailed(.rateLimited(retryAfterMs: 20_000)), 23, .wait(20)), (.woke, 43, .poll),
                (.answered(.approved(approval)), 43, .signIn(approval)),
            ]),
        Case(
            name: "a definitive refusal of a poll fails the flow",
            steps: [
                (.woke, 5, .poll),
                (
                    .pollFailed(.rejected(AuthError(.invalidCredential))), 5,
                    .end(.failed, AuthError(.invalidCredential))
                ),
            ]),
        Case(
            name: "the deadline passing expires the flow; waits never go past it",
            lifetime: 12,
            steps: [
                (.woke, 5, .poll), (.answered(.pending), 5, .wait(5)), (.woke, 10, .poll),
                (.answered(.pending), 10, .wait(2)), (.woke, 12, .end(.expired, AuthError(.expiredSignInFlow))),
            ]),
        Case(
            name: "an approval that arrives as the deadline passes still signs in",
            lifetime: 5,
            steps: [(.woke, 4, .poll), (.answered(.approved(approval)), 6, .signIn(approval))]),
        Case(
            name: "no interval from the provider means 5 s (RFC 8628)", interval: 0,
            steps: [(.woke, 5, .poll), (.answered(.pending), 5, .wait(5))]),
    ]

    @Test(arguments: cases)
    func table(_ row: Case) {
        var poll = DevicePoll(interval: row.interval, deadline: t0.addingTimeInterval(row.lifetime))
        #expect(poll.start(at: t0) == row.first, "first action")
        for (index, (event, at, expected)) in row.steps.enumerated() {
            let action = poll.handle(event, at: t0.addingTimeInterval(at), random: 1)
            #expect(action == expected, "step \(index + 1): \(event)")
        }
    }
}
