import Foundation
import SesameCore
import Testing

private let t0 = Date(timeIntervalSince1970: 1_800_000_000)

/// Nothing that expires is written: a crash at any row drops it with the memory that held it.
@Suite("Expiry: a browser flow's or a challenge's deadline on the service's clock")
struct ExpiryTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var startAt: TimeInterval = 0
        var first: Expiry.Action
        var steps: [(Expiry.Event, Expiry.Action)]
        var testDescription: String { name }
    }

    @Test(
        "each event gives the right next action",
        arguments: [
            Case(
                name: "waits until the deadline, then ends it", first: .wait(300),
                steps: [(.woke(at: t0.addingTimeInterval(300)), .expire), (.expired, .stop)]),
            Case(
                name: "a clock that wakes early waits for the rest", first: .wait(300),
                steps: [(.woke(at: t0.addingTimeInterval(200)), .wait(100))]),
            Case(
                name: "a deadline already past ends it at once", startAt: 301, first: .expire,
                steps: [(.expired, .stop)]),
            Case(name: "ended before the deadline: stopped", first: .wait(300), steps: [(.closed, .stop)]),
            Case(name: "crash while waiting: nothing to resume", first: .wait(300), steps: []),
        ])
    func steps(_ c: Case) {
        var job = Expiry(deadline: t0.addingTimeInterval(300))
        #expect(job.start(at: t0.addingTimeInterval(c.startAt)) == c.first)
        for (event, expected) in c.steps {
            #expect(job.handle(event) == expected)
        }
    }
}
