import Foundation
import SesameCore
import Testing

@Suite("Refresh schedule and backoff")
struct RefreshScheduleTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    func token(lifetime: TimeInterval) -> IDToken {
        IDToken(rawValue: "x", expiresAt: t0.addingTimeInterval(lifetime), issuedAt: t0, signInProvider: "anonymous")
    }

    @Test(
        "refreshes at expiry minus the margin",
        arguments: [
            (3600.0, 300.0, 3300.0),  // the usual case
            (3600.0, 0.0, 3600.0),  // no margin: at expiry
            (60.0, 300.0, 30.0),  // margin longer than the lifetime: at half the lifetime
            (600.0, 300.0, 300.0),
        ])
    func refreshTime(lifetime: Double, margin: Double, expected: Double) {
        let schedule = RefreshSchedule(margin: margin, jitterFraction: 0.1)
        #expect(schedule.refreshTime(for: token(lifetime: lifetime)) == t0.addingTimeInterval(expected))
    }

    @Test("jitter only makes the refresh earlier, by at most the fraction")
    func jitterBounds() {
        let schedule = RefreshSchedule(margin: 300, jitterFraction: 0.1)
        for jitter in stride(from: -1.0, through: 1.0, by: 0.25) {
            let at = schedule.refreshTime(for: token(lifetime: 3600), jitter: jitter).timeIntervalSince(t0)
            #expect(at <= 3300)
            #expect(at >= 3300 - 330)
        }
    }

    @Test("backoff doubles from 1 s to at most 60 s, with jitter between half and all of it")
    func backoff() {
        var backoff = Backoff()
        let full = (0..<9).map { _ in backoff.nextDelay(random: 1) }
        #expect(full == [1, 2, 4, 8, 16, 32, 60, 60, 60])
        var jittered = Backoff()
        #expect(jittered.nextDelay(random: 0) == 0.5)
        jittered.reset()
        #expect(jittered.attempt == 0)
    }
}
