import Foundation
import SesameCore
import SesameTesting
import Testing

@testable import SesameService

/// ``MaintenanceScheduler`` on its own: the plan's deadline on the injected clock races the
/// wake-ups, and the loop performs what is due.
@Suite("MaintenanceScheduler")
struct MaintenanceSchedulerTests {
    /// Owns a scheduler as the service does, and records the jobs it performs.
    actor Host {
        let scheduler: MaintenanceScheduler
        var facts = MaintenancePlan.Facts(
            loaded: true, hasSession: true, anonymousFirst: true, hasCleanup: false, hasUsernameSteps: false,
            merges: [], mergeHold: 0)
        private(set) var performed: [MaintenancePlan.Job] = []

        init(clock: ManualClock) {
            scheduler = MaintenanceScheduler(
                now: { clock.date }, sleeper: ClockSleeper(clock: clock), refreshMargin: 300, mergeHold: 0)
        }

        func run() async {
            await scheduler.run(facts: { facts }) { job in
                performed.append(job)
                // As the service's jobs do: each takes itself off the plan.
                switch job {
                case .refreshToken: scheduler.handle(.refreshTaken)
                case .createAnonymousUser: scheduler.handle(.anonymousCreated)
                default: break
                }
            }
        }

        func handle(_ event: MaintenancePlan.Event) { scheduler.handle(event) }
        func setHasSession(_ value: Bool) { facts.hasSession = value }
        func stop() { scheduler.stop() }
    }

    @Test(
        "sleeps on the injected clock until the plan's deadline, then performs the due job; again after the clock won")
    func clockDeadline() async throws {
        let clock = ManualClock()
        let host = Host(clock: clock)
        await host.handle(.refreshPlanned(clock.date.addingTimeInterval(100)))
        let loop = Task { await host.run() }
        try await eventually { clock.sleeperCount == 1 }
        clock.advance(seconds: 99)
        #expect(await host.performed.isEmpty)
        clock.advance(seconds: 1)
        try await eventually { await host.performed == [.refreshToken] }

        // The clock won the race: the wake-up stream still works, and so does the next deadline.
        await host.handle(.refreshPlanned(clock.date.addingTimeInterval(50)))
        try await eventually { clock.sleeperCount == 1 }
        clock.advance(seconds: 50)
        try await eventually { await host.performed == [.refreshToken, .refreshToken] }
        await host.stop()
        await loop.value
    }

    @Test("a change to the plan wakes the loop at once, with no time passing; the clock's sleeper is cancelled")
    func wakeUp() async throws {
        let clock = ManualClock()
        let host = Host(clock: clock)
        await host.handle(.refreshPlanned(clock.date.addingTimeInterval(1000)))
        let loop = Task { await host.run() }
        try await eventually { clock.sleeperCount == 1 }
        await host.setHasSession(false)
        await host.handle(.anonymousNeeded(at: clock.date))
        try await eventually { await host.performed == [.createAnonymousUser] }
        try await eventually { clock.sleeperCount == 0 }
        await host.stop()
        await loop.value
    }

    @Test("cancelling the loop's task ends run() while it waits")
    func cancellation() async throws {
        let clock = ManualClock()
        let host = Host(clock: clock)
        await host.handle(.refreshPlanned(clock.date.addingTimeInterval(1000)))
        let loop = Task { await host.run() }
        try await eventually { clock.sleeperCount == 1 }
        loop.cancel()
        await loop.value
        #expect(await host.performed.isEmpty)
    }
}
