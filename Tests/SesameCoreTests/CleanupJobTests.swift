import Foundation
import SesameCore
import Testing

private let t0 = Date(timeIntervalSince1970: 1_800_000_000)

private func token(_ n: Int, validFor seconds: TimeInterval = 3600) -> IDToken {
    IDToken(rawValue: "id\(n)", expiresAt: t0.addingTimeInterval(seconds), issuedAt: t0, signInProvider: "x")
}

private func guest(validFor seconds: TimeInterval = 3600) -> Session {
    Session(
        user: User(uid: "g", isAnonymous: true), idToken: token(1, validFor: seconds), refreshToken: RefreshToken("r1"))
}

@Suite("CleanupJob: deleting given-up guests and ending left sessions, step by step")
struct CleanupJobTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var item: CleanupJob.Item
        var first: CleanupJob.Action
        /// Each event with the action it must produce.
        var steps: [(CleanupJob.Event, CleanupJob.Action)]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "a guest is checked, then deleted", item: .deleteAccount(guest()), first: .lookup(token(1)),
            steps: [(.lookedUp(isAnonymous: true), .delete(token(1))), (.deleted, .confirm(.deleted))]),
        Case(
            name: "an expiring token is refreshed first", item: .deleteAccount(guest(validFor: 30)), first: .refresh,
            steps: [
                (.refreshed(token(2)), .lookup(token(2))), (.lookedUp(isAnonymous: true), .delete(token(2))),
                (.deleted, .confirm(.deleted)),
            ]),
        Case(
            name: "a guest linked meanwhile is kept", item: .deleteAccount(guest()), first: .lookup(token(1)),
            steps: [(.lookedUp(isAnonymous: false), .confirm(.noLongerAnonymous))]),
        Case(
            name: "a refused token is refreshed once per call", item: .deleteAccount(guest()), first: .lookup(token(1)),
            steps: [
                (.failed(.idTokenRejected), .refresh), (.refreshed(token(2)), .lookup(token(2))),
                (.lookedUp(isAnonymous: true), .delete(token(2))), (.failed(.idTokenRejected), .refresh),
                (.refreshed(token(3)), .delete(token(3))), (.deleted, .confirm(.deleted)),
            ]),
        Case(
            name: "refused twice: retry later", item: .deleteAccount(guest()), first: .lookup(token(1)),
            steps: [
                (.failed(.idTokenRejected), .refresh), (.refreshed(token(2)), .lookup(token(2))),
                (.failed(.idTokenRejected), .retryLater(.idTokenRejected)),
            ]),
        Case(
            name: "gone at refresh: confirmed", item: .deleteAccount(guest(validFor: 0)), first: .refresh,
            steps: [(.failed(.accountGone(.userNotFound)), .confirm(.alreadyGone))]),
        Case(
            name: "gone at delete: confirmed", item: .deleteAccount(guest()), first: .lookup(token(1)),
            steps: [
                (.lookedUp(isAnonymous: true), .delete(token(1))),
                (.failed(.accountGone(.userNotFound)), .confirm(.alreadyGone)),
            ]),
        Case(
            name: "offline: retry later", item: .deleteAccount(guest()), first: .lookup(token(1)),
            steps: [(.failed(.transport("down")), .retryLater(.transport("down")))]),
        Case(
            name: "a backend that cannot delete: its session is ended instead", item: .deleteAccount(guest()),
            first: .lookup(token(1)),
            steps: [
                (.lookedUp(isAnonymous: true), .delete(token(1))),
                (.failed(.unsupported("deploy it")), .revoke(token(1))),
                (.revoked, .confirm(.revokedInstead)),
            ]),
        Case(
            name: "ending it instead may fail: dropped all the same", item: .deleteAccount(guest()),
            first: .lookup(token(1)),
            steps: [
                (.lookedUp(isAnonymous: true), .delete(token(1))),
                (.failed(.unsupported("deploy it")), .revoke(token(1))),
                (.failed(.transport("down")), .confirm(.revokedInstead)),
            ]),
        Case(
            name: "a left session is ended", item: .revokeSession(guest()), first: .revoke(token(1)),
            steps: [(.revoked, .confirm(.revoked))]),
        Case(
            name: "a left session with a refused token: refreshed once", item: .revokeSession(guest()),
            first: .revoke(token(1)),
            steps: [
                (.failed(.idTokenRejected), .refresh), (.refreshed(token(2)), .revoke(token(2))),
                (.revoked, .confirm(.revoked)),
            ]),
        Case(
            name: "a left session already over needs nothing", item: .revokeSession(guest()), first: .revoke(token(1)),
            steps: [
                (.failed(.idTokenRejected), .refresh),
                (.failed(.accountGone(.sessionRevoked)), .confirm(.nothingToEnd)),
            ]),
        Case(
            name: "a left session while offline: retry later", item: .revokeSession(guest()), first: .revoke(token(1)),
            steps: [(.failed(.unavailable(status: 503)), .retryLater(.unavailable(status: 503)))]),
    ]

    @Test("each event gives the right next action", arguments: cases)
    func steps(_ c: Case) {
        var job = CleanupJob(c.item)
        #expect(job.start(at: t0) == c.first)
        for (event, expected) in c.steps {
            #expect(job.handle(event) == expected)
        }
    }

    /// A crash at any step leaves the item listed (it leaves the list only with the confirming
    /// write). After the restart the job starts over; these are the answers the backend then
    /// gives for each crash point, and the job must still end in a confirmation.
    @Test(
        "replayed after a crash at each step, the job still ends confirmed",
        arguments: [
            Case(
                name: "crash before anything was sent", item: .deleteAccount(guest()), first: .lookup(token(1)),
                steps: [(.lookedUp(isAnonymous: true), .delete(token(1))), (.deleted, .confirm(.deleted))]),
            Case(
                name: "crash after the lookup", item: .deleteAccount(guest()), first: .lookup(token(1)),
                steps: [(.lookedUp(isAnonymous: true), .delete(token(1))), (.deleted, .confirm(.deleted))]),
            Case(
                name: "crash after the backend deleted it, before the write", item: .deleteAccount(guest()),
                first: .lookup(token(1)), steps: [(.failed(.accountGone(.userNotFound)), .confirm(.alreadyGone))]),
            Case(
                name: "crash after the refresh (the old token still works)", item: .deleteAccount(guest(validFor: 30)),
                first: .refresh,
                steps: [
                    (.refreshed(token(3)), .lookup(token(3))),
                    (.lookedUp(isAnonymous: true), .delete(token(3))), (.deleted, .confirm(.deleted)),
                ]),
            Case(
                name: "crash after the session was ended, before the write", item: .revokeSession(guest()),
                first: .revoke(token(1)),
                steps: [
                    (.failed(.idTokenRejected), .refresh),
                    (.failed(.accountGone(.sessionRevoked)), .confirm(.nothingToEnd)),
                ]),
            Case(
                name: "crash after ending it instead of deleting it", item: .deleteAccount(guest()),
                first: .lookup(token(1)),
                steps: [
                    (.failed(.idTokenRejected), .refresh),
                    (.failed(.accountGone(.sessionRevoked)), .confirm(.alreadyGone)),
                ]),
        ])
    func replayAfterCrash(_ c: Case) {
        steps(c)
    }
}
