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

    @Test(
        "a hostile expiresIn is planned with a lifetime clamped to 60 s...1 week",
        arguments: [
            (0.001, 30.0),  // a refresh storm before: now half of 60 s
            (0.0, 30.0),
            (-5.0, 30.0),  // expiry before issue
            (.nan, 30.0),  // not a number: counts as expired at once
            (1e16, 604_500.0),  // trapped converting the sleep to Int64 milliseconds before
            (1e21, 604_500.0),  // trapped in STATUS= text before
            (.infinity, 604_500.0),
            (3600.0, 3300.0),  // a sane one is untouched
        ])
    func hostileLifetime(lifetime: Double, expected: Double) {
        let schedule = RefreshSchedule(margin: 300, jitterFraction: 0.1)
        let at = schedule.refreshTime(for: token(lifetime: lifetime))
        #expect(at.timeIntervalSince(t0) == expected, "lifetime \(lifetime)")
    }

    @Test("automatic refreshes are at least 30 s after the token was obtained, whatever the jitter")
    func minimumInterval() {
        for margin in [0.0, 30, 300, 10_000] {
            let schedule = RefreshSchedule(margin: margin, jitterFraction: 1)
            for lifetime in [0.001, 1, 59, 61, 120, 3600] {
                for jitter in [-1.0, 0, 0.5, 1, .nan] {
                    let at = schedule.refreshTime(for: token(lifetime: lifetime), jitter: jitter).timeIntervalSince(t0)
                    #expect(at >= RefreshSchedule.minimumInterval, "margin \(margin) lifetime \(lifetime)")
                    #expect(at.isFinite)
                }
            }
        }
    }

    @Test("an expiry past year 9999 is capped there, also when decoded from a keyring; a sane one is kept")
    func expiryCap() throws {
        #expect(token(lifetime: 1e21).expiresAt == IDToken.latestExpiry)
        #expect(token(lifetime: 3600).expiresAt == t0.addingTimeInterval(3600))
        #expect(token(lifetime: .nan).expiresAt == t0)
        let json = #"{"rawValue":"x","expiresAt":1e21,"issuedAt":0,"signInProvider":"anonymous"}"#
        let decoded = try JSONDecoder().decode(IDToken.self, from: Data(json.utf8))
        #expect(decoded.expiresAt == IDToken.latestExpiry)
        #expect(
            IDToken.latestExpiry.formatted(Date.ISO8601FormatStyle(timeZone: .gmt)) == "9999-12-31T23:59:59Z")
    }

    @Test(
        "seconds become a Duration without trapping",
        arguments: [
            (Double.nan, Duration.zero), (-1, .zero), (0, .zero), (0.0001, .milliseconds(1)),
            (1.5, .milliseconds(1500)), (1e16, .seconds(1_000_000_000)), (1e21, .seconds(1_000_000_000)),
            (.infinity, .seconds(1_000_000_000)),
        ])
    func saturatingDuration(seconds: Double, expected: Duration) {
        #expect(SaturatingTime.duration(seconds: seconds) == expected)
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
