import Foundation
import SesameCore
import SesameService
import SesameTesting
import Testing

/// A backend that says a token lives for absurdly long or short (red-team finding of issue
/// #25): the maintenance loop must neither trap converting the wait nor refresh in a storm.
@Suite("Session service: hostile token lifetimes")
struct HostileLifetimeServiceTests {
    @Test(
        "a huge expiresIn: the expiry is capped at year 9999, the loop sleeps (no trap) and refreshes within a week",
        arguments: [1e16, 1e21])
    func hugeLifetime(seconds: Double) async throws {
        let harness = ServiceHarness(configuration: .init(refreshMargin: 300))
        await harness.provider.setTokenLifetime(seconds)
        try await harness.run { events in
            let created = try await next(&events) { $0.reason == .anonymousCreated }
            #expect(created.state.tokenExpiresAt == IDToken.latestExpiry)
            _ = try await next(&events) { $0.isIdTokenChanged }  // the first token's announcement
            try await eventually { harness.clock.sleeperCount > 0 }
            let planned = try #require(await harness.service.nextPlannedWork)
            #expect(planned.timeIntervalSince(harness.clock.date) <= RefreshSchedule.lifetimeRange.upperBound)
            harness.clock.advance(seconds: RefreshSchedule.lifetimeRange.upperBound)
            _ = try await next(&events) { $0.isIdTokenChanged }
            #expect(await harness.provider.count("refresh") == 1)
        }
    }

    @Test("a tiny expiresIn: the daemon refreshes by itself at most once per 30 s")
    func tinyLifetime() async throws {
        let harness = ServiceHarness(configuration: .init(refreshMargin: 300))
        await harness.provider.setTokenLifetime(0.001)
        try await harness.run { events in
            _ = try await next(&events) { $0.reason == .anonymousCreated }
            _ = try await next(&events) { $0.isIdTokenChanged }  // the first token's announcement
            for round in 1...3 {
                try await eventually { harness.clock.sleeperCount > 0 }
                // Before the fix the next refresh was planned 0.5 ms after the token came.
                let planned = try #require(await harness.service.nextPlannedWork)
                #expect(planned.timeIntervalSince(harness.clock.date) >= RefreshSchedule.minimumInterval - 0.001)
                #expect(await harness.provider.count("refresh") == round - 1, "round \(round)")
                harness.clock.advance(seconds: RefreshSchedule.minimumInterval)
                _ = try await next(&events) { $0.isIdTokenChanged }
                #expect(await harness.provider.count("refresh") == round)
            }
        }
    }
}
