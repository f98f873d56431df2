import Foundation
import SesameCore
import Testing

private let t0 = Date(timeIntervalSince1970: 1_800_000_000)

private func facts(
    loaded: Bool = true, session: Bool = true, anonymousFirst: Bool = true, cleanup: Bool = false,
    usernames: Bool = false, merges: [Merge] = [], hold: TimeInterval = 0
) -> MaintenancePlan.Facts {
    MaintenancePlan.Facts(
        loaded: loaded, hasSession: session, anonymousFirst: anonymousFirst, hasCleanup: cleanup,
        hasUsernameSteps: usernames, merges: merges, mergeHold: hold)
}

@Suite("MaintenancePlan: what background work is due when")
struct MaintenancePlanTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var events: [MaintenancePlan.Event]
        var facts: MaintenancePlan.Facts
        /// Seconds after t0 at which `due` is asked.
        var at: TimeInterval
        var due: [MaintenancePlan.Job]
        /// Seconds after t0 of the next deadline; nil when nothing is planned.
        var next: TimeInterval?
        var testDescription: String { name }
    }

    static let merge = Merge(mergeId: "m1", fromUid: "g", toUid: "a", createdAt: t0)

    @Test(
        "due jobs and the next deadline",
        arguments: [
            Case(name: "nothing planned", events: [], facts: facts(), at: 0, due: [], next: nil),
            Case(
                name: "nothing runs before the keyring is loaded",
                events: [.anonymousNeeded(at: t0)], facts: facts(loaded: false, session: false), at: 0, due: [],
                next: nil),
            Case(
                name: "anonymous first: create the user at once",
                events: [.anonymousNeeded(at: t0)], facts: facts(session: false), at: 0,
                due: [.createAnonymousUser], next: 0),
            Case(
                name: "anonymous first off: never create one",
                events: [.anonymousNeeded(at: t0)], facts: facts(session: false, anonymousFirst: false), at: 0,
                due: [], next: nil),
            Case(
                name: "a failed keyring write is retried after its backoff (1 s at random 1)",
                events: [.keyringWriteFailed(at: t0, random: 1)], facts: facts(), at: 0.5, due: [], next: 1),
            Case(
                name: "a failed keyring write is due first, before the other jobs",
                events: [.keyringWriteFailed(at: t0, random: 1), .anonymousNeeded(at: t0)],
                facts: facts(session: false),
                at: 1, due: [.writeKeyring, .createAnonymousUser], next: 0),
            Case(
                name: "keyring writes keep failing: the wait doubles",
                events: [.keyringWriteFailed(at: t0, random: 1), .keyringWriteFailed(at: t0, random: 1)],
                facts: facts(),
                at: 1.5, due: [], next: 2),
            Case(
                name: "a successful write takes the keyring job off the plan",
                events: [.keyringWriteFailed(at: t0, random: 1), .keyringWritten], facts: facts(), at: 60, due: [],
                next: nil),
            Case(
                name: "no keyring retry before the keyring was loaded",
                events: [.keyringWriteFailed(at: t0, random: 1)], facts: facts(loaded: false), at: 5, due: [], next: nil
            ),
            Case(
                name: "a failed creation waits its backoff (1 s at random 1)",
                events: [.anonymousNeeded(at: t0), .anonymousFailed(at: t0, random: 1)], facts: facts(session: false),
                at: 0.5, due: [], next: 1),
            Case(
                name: "the second failure waits twice as long",
                events: [
                    .anonymousNeeded(at: t0), .anonymousFailed(at: t0, random: 1), .anonymousFailed(at: t0, random: 1),
                ],
                facts: facts(session: false), at: 1, due: [], next: 2),
            Case(
                name: "a new need resets the backoff",
                events: [
                    .anonymousFailed(at: t0, random: 1), .anonymousFailed(at: t0, random: 1), .anonymousNeeded(at: t0),
                ],
                facts: facts(session: false), at: 0, due: [.createAnonymousUser], next: 0),
            Case(
                name: "a rate limit's retry-after is waited out, longer than the backoff",
                events: [.anonymousNeeded(at: t0), .anonymousFailed(at: t0, random: 1, retryAfter: 30)],
                facts: facts(session: false), at: 29, due: [], next: 30),
            Case(
                name: "a retry-after shorter than the backoff does not shorten it",
                events: [.cleanupNeeded(at: t0), .cleanupTaken, .cleanupFailed(at: t0, random: 1, retryAfter: 0.1)],
                facts: facts(cleanup: true), at: 0.5, due: [], next: 1),
            Case(
                name: "a rate-limited refresh waits as asked",
                events: [.refreshPlanned(t0), .refreshTaken, .refreshFailed(at: t0, random: 0, retryAfter: 12)],
                facts: facts(), at: 12, due: [.refreshToken], next: 12),
            Case(
                name: "created: no more attempts",
                events: [.anonymousNeeded(at: t0), .anonymousCreated], facts: facts(session: false), at: 10, due: [],
                next: nil),
            Case(
                name: "refresh at its planned moment",
                events: [.refreshPlanned(t0.addingTimeInterval(3300))], facts: facts(), at: 3300,
                due: [.refreshToken], next: 3300),
            Case(
                name: "a taken refresh is not due again",
                events: [.refreshPlanned(t0), .refreshTaken], facts: facts(), at: 10, due: [], next: nil),
            Case(
                name: "a failed refresh retries after its backoff",
                events: [.refreshPlanned(t0), .refreshTaken, .refreshFailed(at: t0, random: 0)], facts: facts(),
                at: 0.5,
                due: [.refreshToken], next: 0.5),
            Case(
                name: "a new token after failed refreshes plans its own moment and starts the backoff over",
                events: [
                    .refreshPlanned(t0), .refreshTaken, .refreshFailed(at: t0, random: 0), .refreshTaken,
                    .refreshFailed(at: t0, random: 0), .refreshPlanned(t0.addingTimeInterval(3300)), .refreshTaken,
                    .refreshFailed(at: t0, random: 0),
                ],
                facts: facts(), at: 0.5, due: [.refreshToken], next: 0.5),
            Case(
                name: "a rate limit on any call plans the refresh for its end, earlier or later than planned",
                events: [.refreshPlanned(t0.addingTimeInterval(3300)), .rateLimited(until: t0.addingTimeInterval(7))],
                facts: facts(), at: 6.9, due: [], next: 7),
            Case(
                name: "no refresh without a session",
                events: [.refreshPlanned(t0)], facts: facts(session: false, anonymousFirst: false), at: 0, due: [],
                next: nil),
            Case(
                name: "cleanup at once when something was added",
                events: [.cleanupNeeded(at: t0)], facts: facts(cleanup: true), at: 0, due: [.cleanup], next: 0),
            Case(
                name: "cleanup waits its backoff after a failure",
                events: [.cleanupNeeded(at: t0), .cleanupTaken, .cleanupFailed(at: t0, random: 1)],
                facts: facts(cleanup: true),
                at: 0.9, due: [], next: 1),
            Case(
                name: "finished cleanup is not due",
                events: [.cleanupNeeded(at: t0), .cleanupFinished], facts: facts(cleanup: true), at: 5, due: [],
                next: nil),
            Case(
                name: "an empty cleanup list is never due",
                events: [.cleanupNeeded(at: t0)], facts: facts(), at: 0, due: [], next: nil),
            Case(
                name: "username steps left by a crash are due at once",
                events: [], facts: facts(usernames: true), at: 0, due: [.finishUsernameSteps], next: -1),
            Case(
                name: "username steps pause 5 to 7.5 s after a failure",
                events: [.usernameStepsFailed(at: t0, random: 1)], facts: facts(usernames: true), at: 7, due: [],
                next: 7.5),
            Case(
                name: "a merge completes when its hold runs out",
                events: [], facts: facts(merges: [merge], hold: 600), at: 600, due: [.completeMerge(mergeId: "m1")],
                next: 600),
            Case(
                name: "a merge with hold 0 waits for a migrator (completed at once by the flow)",
                events: [], facts: facts(merges: [merge], hold: 0), at: 9999, due: [], next: nil),
            Case(
                name: "several due at once come in a fixed order",
                events: [.refreshPlanned(t0), .cleanupNeeded(at: t0)],
                facts: facts(cleanup: true, usernames: true, merges: [merge], hold: 1), at: 1,
                due: [.refreshToken, .cleanup, .finishUsernameSteps, .completeMerge(mergeId: "m1")], next: -1),
        ])
    func plan(_ c: Case) {
        var plan = MaintenancePlan()
        for event in c.events { plan.handle(event) }
        #expect(plan.due(at: t0.addingTimeInterval(c.at), c.facts) == c.due)
        let next = plan.nextDeadline(c.facts).map { $0.timeIntervalSince(t0) }
        if c.next == -1 {
            #expect(next.map { $0 < 0 } == true)
        } else {
            #expect(next == c.next)
        }
    }

    @Test(
        "a backend's Retry-After is waited out in full and up to a fifth longer, spread by the random number",
        arguments: [
            (30.0, 0.0, 30.0), (30.0, 0.5, 33.0), (30.0, 1.0, 36.0), (30.0, 7.0, 36.0), (30.0, -1.0, 30.0),
            (30.0, Double.nan, 30.0),
        ])
    func retryAfterSpread(retryAfter: Double, random: Double, waited: Double) {
        #expect(MaintenancePlan.spread(retryAfter, random: random) == waited)
        #expect(MaintenancePlan.spread(nil, random: random) == nil)
    }
}
