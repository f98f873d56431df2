import Foundation
import SesameCore
import Testing

private let t0 = Date(timeIntervalSince1970: 1_800_000_000)
private let hour: TimeInterval = 3600

private func facts(session: Bool = true, cleanup: Bool = false) -> MaintenancePlan.Facts {
    MaintenancePlan.Facts(loaded: true, hasSession: session, anonymousFirst: true, hasCleanup: cleanup)
}

/// Issue 36: a resume from sleep and a network change bring work forward; neither resets a
/// backoff, so real failures stay bounded by it.
@Suite("MaintenancePlan: resume from sleep and network changes")
struct MaintenancePlanWakeTests {
    /// A one-hour token obtained at t0 with the default margin (300 s): refreshed at t0 + 55 min.
    private static func planned() -> MaintenancePlan {
        var plan = MaintenancePlan()
        let token = IDToken(
            rawValue: "t", expiresAt: t0.addingTimeInterval(hour), issuedAt: t0, signInProvider: "anonymous")
        plan.handle(.refreshPlanned(RefreshSchedule(margin: 300).refreshTime(for: token)))
        return plan
    }

    @Test("8 h asleep (the clock moved on, no timer fired): at resume the expired token's refresh is due at once")
    func eightHoursAsleep() {
        var plan = Self.planned()
        let resume = t0.addingTimeInterval(8 * hour)
        plan.handle(.resumed(at: resume, tokenDue: true))
        #expect(plan.due(at: resume, facts()) == [.refreshToken])
        #expect(plan.nextDeadline(facts()).map { $0 <= resume } == true)
    }

    @Test("a resume with the token within the margin but before its planned refresh: refreshed now")
    func withinMarginBeforePlan() {
        // A margin longer than the lifetime plans the refresh at half of it; at resume the
        // token is within the margin, so it is refreshed at once.
        var plan = MaintenancePlan()
        let token = IDToken(
            rawValue: "t", expiresAt: t0.addingTimeInterval(hour), issuedAt: t0, signInProvider: "anonymous")
        plan.handle(.refreshPlanned(RefreshSchedule(margin: hour).refreshTime(for: token)))
        let resume = t0.addingTimeInterval(60)
        #expect(plan.due(at: resume, facts()) == [])
        plan.handle(.resumed(at: resume, tokenDue: true))
        #expect(plan.due(at: resume, facts()) == [.refreshToken])
    }

    @Test("a resume with a token valid beyond the margin and no backoff changes nothing")
    func resumeWithFreshToken() {
        var plan = Self.planned()
        let before = plan
        plan.handle(.resumed(at: t0.addingTimeInterval(600), tokenDue: false))
        #expect(plan == before)
        #expect(plan.due(at: t0.addingTimeInterval(600), facts()) == [])
    }

    @Test(
        "offline (the refresh waits out its backoff): a network change makes it due at once, the next failure waits longer"
    )
    func networkChangeWhileOffline() {
        var plan = Self.planned()
        let failed = t0.addingTimeInterval(55 * 60)
        plan.handle(.refreshTaken)
        for _ in 0..<4 { plan.handle(.refreshFailed(at: failed, random: 1)) }  // 1, 2, 4, 8 s: now 8 s
        let change = failed.addingTimeInterval(2)
        #expect(plan.due(at: change, facts()) == [])
        plan.handle(.networkChanged(at: change))
        #expect(plan.due(at: change, facts()) == [.refreshToken])
        // It failed again: the backoff goes on from where it was (16 s), not from 1 s.
        plan.handle(.refreshTaken)
        plan.handle(.refreshFailed(at: change, random: 1))
        #expect(plan.nextDeadline(facts()) == change.addingTimeInterval(16))
    }

    @Test("online (nothing waits out a backoff): a network change changes nothing")
    func networkChangeWhileOnline() {
        var plan = Self.planned()
        let before = plan
        plan.handle(.networkChanged(at: t0.addingTimeInterval(60)))
        #expect(plan == before)
    }

    @Test("the guest's creation and the cleanup list waiting out their backoffs are brought forward too")
    func otherRetries() {
        var plan = MaintenancePlan()
        plan.handle(.anonymousFailed(at: t0, random: 1))
        plan.handle(.cleanupNeeded(at: t0))
        plan.handle(.cleanupTaken)
        plan.handle(.cleanupFailed(at: t0, random: 1))
        plan.handle(.networkChanged(at: t0.addingTimeInterval(0.5)))
        #expect(
            plan.due(at: t0.addingTimeInterval(0.5), facts(session: false, cleanup: true)) == [
                .createAnonymousUser, .cleanup,
            ])
    }
}
