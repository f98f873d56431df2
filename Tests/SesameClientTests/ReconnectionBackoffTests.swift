import SesameCore
import Testing

@testable import SesameClient

@Suite("Reconnection backoff")
struct ReconnectionBackoffTests {
    @Test func doublesFromFiftyMillisecondsToTwoSecondsWithJitter() {
        var backoff = Link.reconnectBackoff
        for step in 0..<10 {
            let ceiling = min(Duration.milliseconds(50) * (1 << step), .seconds(2))
            let delay = backoff.next()
            #expect(delay <= ceiling)
            #expect(delay >= ceiling / 2)
        }
        backoff.reset()
        #expect(backoff.next() <= .milliseconds(50))
    }

    @Test func theFullStepsAreTheDaemonsScheduleScaledDown() {
        var backoff = Link.reconnectBackoff
        let full = (0..<8).map { _ in backoff.next(random: 1) }
        #expect(full == [50, 100, 200, 400, 800, 1600, 2000, 2000].map { Duration.milliseconds($0) })
        #expect(backoff.attempt == 8)
        backoff.reset()
        #expect(backoff.next(random: 0) == .milliseconds(25))
    }
}
