import Foundation
import SesameCore
import SesameService
import SesameTesting
import Testing

/// Issue 36, fresh at resume: the daemon hears logind's `PrepareForSleep(false)` as
/// ``SessionService/resumed()``; the first request after opening the lid must find a valid token.
@Suite("Session service: resume from sleep")
struct ResumeServiceTests {
    @Test("8 h asleep, its refresh timer skipped the sleep: at resume the token is refreshed at once and published")
    func eightHoursAsleep() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            _ = try await next(&events) { $0.reason == .anonymousCreated }
            _ = try await next(&events) { $0.isIdTokenChanged }  // the first token's announcement
            try await eventually { harness.clock.sleeperCount > 0 }
            harness.clock.suspend(seconds: 8 * 3600)
            #expect(await harness.provider.count("refresh") == 0)
            await harness.service.resumed()
            let changed = try await next(&events) { $0.isIdTokenChanged }
            #expect(await harness.provider.count("refresh") == 1)
            let expiry = try #require(changed.state.tokenExpiresAt)
            #expect(expiry.timeIntervalSince(harness.clock.date) > 3000)
        }
    }
}
