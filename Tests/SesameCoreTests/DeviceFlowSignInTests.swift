import Foundation
import SesameCore
import Testing

private let t0 = Date(timeIntervalSince1970: 1_800_000_000)
private let approval = FederatedCredential(providerId: "google.com", idToken: "person", accessToken: nil)
private let merge = Merge(mergeId: "m1", fromUid: "guest", toUid: "acct", createdAt: t0)

/// Nothing of a device flow is written: a crash at any row drops the flow (the restart finds
/// the keyring as it was before the sign-in, or after it: one write), and the person starts the
/// sign-in again. The polling rules themselves are DevicePollTests'.
@Suite("DeviceFlowSignIn: a device flow's steps from the first wait to its end")
struct DeviceFlowSignInTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var steps: [(DeviceFlowSignIn.Event, DeviceFlowSignIn.Action)]
        var testDescription: String { name }
    }

    static func at(_ seconds: TimeInterval) -> Date { t0.addingTimeInterval(seconds) }

    @Test(
        "each event gives the right next action",
        arguments: [
            Case(
                name: "approved: signed in, the flow ended completed with the merge, then stopped",
                steps: [
                    (.woke(at: at(5)), .poll), (.answered(.pending, at: at(5), random: 1), .wait(5)),
                    (.woke(at: at(10)), .poll),
                    (.answered(.approved(approval), at: at(10), random: 1), .signIn(approval)),
                    (.signedIn(merge), .end(.completed, .success(merge))), (.ended, .stop),
                ]),
            Case(
                name: "denied: the flow ends failed with access-denied",
                steps: [
                    (.woke(at: at(5)), .poll),
                    (.answered(.denied, at: at(5), random: 1), .end(.failed, .failure(AuthError(.accessDenied)))),
                    (.ended, .stop),
                ]),
            Case(
                name: "the provider unreachable: polled again after the interval at least",
                steps: [
                    (.woke(at: at(5)), .poll),
                    (.pollFailed(.transport("offline"), at: at(5), random: 1), .wait(5)),
                ]),
            Case(
                name: "the backend down at the approval: the sign-in is tried again after a backoff",
                steps: [
                    (.woke(at: at(5)), .poll),
                    (.answered(.approved(approval), at: at(5), random: 1), .signIn(approval)),
                    (.signInFailed(AuthError(.networkRequestFailed), at: at(5), random: 1), .wait(2)),
                    (.woke(at: at(7)), .signIn(approval)),
                ]),
            Case(
                name: "the deadline passes: the flow ends expired",
                steps: [(.woke(at: at(600)), .end(.expired, .failure(AuthError(.expiredSignInFlow))))]),
            Case(
                name: "cancelled or replaced while waiting: stopped", steps: [(.closed, .stop)]),
            Case(
                name: "crash while polling: nothing written; the restart has no flow, the person starts again",
                steps: [(.woke(at: at(5)), .poll)]),
            Case(
                name: "crash after the sign-in, before the end was published: the keyring holds the account",
                steps: [
                    (.woke(at: at(5)), .poll),
                    (.answered(.approved(approval), at: at(5), random: 1), .signIn(approval)),
                    (.signedIn(nil), .end(.completed, .success(nil))),
                ]),
        ])
    func steps(_ c: Case) {
        var job = DeviceFlowSignIn(poll: DevicePoll(interval: 5, deadline: Self.at(600)))
        #expect(job.start(at: t0) == .wait(5))
        for (event, expected) in c.steps {
            #expect(job.handle(event) == expected)
        }
    }
}
