import Foundation
import SesameCore
import Testing

private let t0 = Date(timeIntervalSince1970: 1_800_000_000)
private let merge = Merge(mergeId: "m1", fromUid: "guest", toUid: "fleet", createdAt: t0)

/// Nothing is written before the sign-in (one keyring write): the "crash" rows are what the
/// next start finds (the token file read again, the guest or the enrolled account).
@Suite("CustomTokenEnrollment: provisioning's steps and crash points")
struct CustomTokenEnrollmentTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var steps: [(CustomTokenEnrollment.Event, CustomTokenEnrollment.Action)]
        var testDescription: String { name }
    }

    @Test(
        "each event gives the right next action",
        arguments: [
            Case(
                name: "a guest or nobody: signed in with the token",
                steps: [
                    (.checked(accountUid: nil), .signIn),
                    (.signedIn(uid: "fleet", merge: merge), .finish(.signedIn(uid: "fleet", merge: merge))),
                ]),
            Case(name: "an account signed in: skipped", steps: [(.checked(accountUid: "a"), .finish(.skipped))]),
            Case(
                name: "a refused token: failed, not retried",
                steps: [
                    (.checked(accountUid: nil), .signIn),
                    (
                        .failed(AuthError(.invalidCustomToken), random: 1),
                        .finish(.failed(AuthError(.invalidCustomToken)))
                    ),
                ]),
            Case(
                name: "a second factor: failed, never retried",
                steps: [
                    (.checked(accountUid: nil), .signIn),
                    (
                        .failed(AuthError(.secondFactorRequired), random: 1),
                        .finish(.failed(AuthError(.secondFactorRequired)))
                    ),
                ]),
            Case(
                name: "the backend unreachable: tried again with backoff, checking again each time",
                steps: [
                    (.checked(accountUid: nil), .signIn),
                    (
                        .failed(AuthError(.networkRequestFailed), random: 1),
                        .retry(after: 2, AuthError(.networkRequestFailed))
                    ),
                    (.woke, .check), (.checked(accountUid: nil), .signIn),
                    (
                        .failed(AuthError(.backendUnavailable), random: 1),
                        .retry(after: 4, AuthError(.backendUnavailable))
                    ),
                    (.woke, .check), (.checked(accountUid: nil), .signIn),
                    (
                        .failed(AuthError(.tooManyRequests, retryAfterMs: 60_000), random: 1),
                        .retry(after: 60, AuthError(.tooManyRequests, retryAfterMs: 60_000))
                    ),
                ]),
            Case(name: "cancelled (shutdown): stopped", steps: [(.cancelled, .finish(.cancelled))]),
            Case(
                name: "an account signed in while waiting: skipped",
                steps: [
                    (.checked(accountUid: nil), .signIn),
                    (
                        .failed(AuthError(.networkRequestFailed), random: 1),
                        .retry(after: 2, AuthError(.networkRequestFailed))
                    ),
                    (.woke, .check), (.checked(accountUid: "a"), .finish(.skipped)),
                ]),
            Case(
                name: "crash before the sign-in: nothing written; the next start reads the token again",
                steps: [(.checked(accountUid: nil), .signIn)]),
        ])
    func steps(_ c: Case) {
        var job = CustomTokenEnrollment()
        #expect(job.start() == .check)
        for (event, expected) in c.steps {
            #expect(job.handle(event) == expected)
        }
    }
}
