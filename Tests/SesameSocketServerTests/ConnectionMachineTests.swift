import Testing

@testable import SesameSocketServer

/// ``ConnectionMachine`` as a table: each row starts from a state, feeds one event and names
/// what the machine must answer and the state it must leave.
@Suite("ConnectionMachine: reading, bursting, paused at the in-flight cap, closing")
struct ConnectionMachineTests {
    /// A machine with a cap of 2 requests in flight and 100 held answer bytes.
    static func machine(
        inFlight: Int = 0, paused: Bool = false, bursting: Bool = false, queued: Int = 0, idle: Int = 0,
        closing: Bool = false
    ) -> ConnectionMachine {
        var machine = ConnectionMachine(maximumInFlight: 2, maximumQueuedAnswerBytes: 100)
        for _ in 0..<inFlight { machine.started() }
        if paused { _ = machine.settle(linesWait: true, writable: false) }
        if bursting { _ = machine.beginBurst() }
        machine.answered(holding: queued)
        for _ in 0..<idle { _ = machine.idleTick(ticksToClose: 100, subscribed: true) }
        if closing { machine.close() }
        return machine
    }

    struct ReadRow: Sendable, CustomTestStringConvertible {
        let name: String
        let paused: Bool
        let closing: Bool
        let expected: ConnectionMachine.AfterRead
        var testDescription: String { name }
    }

    @Test(
        "a read is handled while reading, kept while paused, dropped while closing; it resets the idle ticks",
        arguments: [
            ReadRow(name: "reading", paused: false, closing: false, expected: .handle),
            ReadRow(name: "paused", paused: true, closing: false, expected: .keep),
            ReadRow(name: "closing", paused: false, closing: true, expected: .drop),
            ReadRow(name: "paused and closing", paused: true, closing: true, expected: .drop),
        ])
    func read(row: ReadRow) {
        var machine = Self.machine(paused: row.paused, idle: 3, closing: row.closing)
        let answer = machine.read()
        #expect(answer == row.expected)
        #expect(machine.idleTicks == (row.expected == .drop ? 3 : 0))
    }

    struct LineRow: Sendable, CustomTestStringConvertible {
        let name: String
        let inFlight: Int
        let queued: Int
        let writable: Bool
        let closing: Bool
        let expected: ConnectionMachine.NextLine
        let queuedAfter: Int
        var testDescription: String { name }
    }

    @Test(
        "the next line of a burst: handled under the bounds, after a flush past the held bytes, never at the cap, unwritable or closing",
        arguments: [
            LineRow(
                name: "room", inFlight: 0, queued: 10, writable: true, closing: false, expected: .handle,
                queuedAfter: 10),
            LineRow(
                name: "one below the cap", inFlight: 1, queued: 0, writable: true, closing: false, expected: .handle,
                queuedAfter: 0),
            LineRow(
                name: "at the cap", inFlight: 2, queued: 0, writable: true, closing: false, expected: .stop,
                queuedAfter: 0),
            LineRow(
                name: "not writable", inFlight: 0, queued: 0, writable: false, closing: false, expected: .stop,
                queuedAfter: 0),
            LineRow(
                name: "closing", inFlight: 0, queued: 0, writable: true, closing: true, expected: .stop, queuedAfter: 0),
            LineRow(
                name: "held bytes at the bound", inFlight: 0, queued: 100, writable: true, closing: false,
                expected: .flushFirst, queuedAfter: 0),
            LineRow(
                name: "held bytes past the bound", inFlight: 1, queued: 250, writable: true, closing: false,
                expected: .flushFirst, queuedAfter: 0),
        ])
    func nextLine(row: LineRow) {
        var machine = Self.machine(inFlight: row.inFlight, bursting: true, queued: row.queued, closing: row.closing)
        let answer = machine.nextLine(writable: row.writable)
        #expect(answer == row.expected)
        #expect(machine.queuedAnswers == row.queuedAfter)
    }

    struct SettleRow: Sendable, CustomTestStringConvertible {
        let name: String
        let inFlight: Int
        let paused: Bool
        let linesWait: Bool
        let writable: Bool
        let expected: ConnectionMachine.Reading
        var testDescription: String { name }
    }

    @Test(
        "after a burst reading pauses at the cap with lines waiting or when unwritable, and resumes when neither holds",
        arguments: [
            SettleRow(
                name: "reading, room", inFlight: 0, paused: false, linesWait: false, writable: true,
                expected: .unchanged),
            SettleRow(
                name: "at the cap, lines wait", inFlight: 2, paused: false, linesWait: true, writable: true,
                expected: .pause),
            SettleRow(
                name: "at the cap, nothing waits", inFlight: 2, paused: false, linesWait: false, writable: true,
                expected: .unchanged),
            SettleRow(
                name: "lines wait below the cap (a partial line)", inFlight: 1, paused: false, linesWait: true,
                writable: true, expected: .unchanged),
            SettleRow(
                name: "unwritable", inFlight: 0, paused: false, linesWait: false, writable: false, expected: .pause),
            SettleRow(
                name: "paused, writable again", inFlight: 0, paused: true, linesWait: false, writable: true,
                expected: .resume),
            SettleRow(
                name: "paused, still at the cap", inFlight: 2, paused: true, linesWait: true, writable: true,
                expected: .unchanged),
        ])
    func settle(row: SettleRow) {
        var machine = Self.machine(inFlight: row.inFlight, paused: row.paused)
        let answer = machine.settle(linesWait: row.linesWait, writable: row.writable)
        #expect(answer == row.expected)
        #expect(machine.readingPaused == (row.expected == .pause || (row.paused && row.expected == .unchanged)))
    }

    @Test("a burst holds the outbox once; the flush ends it and forgets the held bytes")
    func burst() {
        var machine = Self.machine()
        let first = machine.beginBurst()
        let second = machine.beginBurst()
        #expect(first && !second)
        machine.answered(holding: 42)
        machine.released()
        #expect(machine == Self.machine())
        let again = machine.beginBurst()
        #expect(again)
    }

    @Test("a burst a lone client's read began is written as the read ends; any other waits for the loop's flush")
    func readEnd() {
        var lone = Self.machine()
        _ = lone.beginBurst(atReadEnd: true)
        #expect(lone.readEnded())
        let nested = lone.beginBurst()
        #expect(!nested && lone.readEnded())
        lone.released()
        #expect(!lone.readEnded())
        #expect(lone == Self.machine())
        var batched = Self.machine()
        _ = batched.beginBurst()
        #expect(!batched.readEnded())
        #expect(!Self.machine().readEnded())
    }

    @Test("an answer coming back is dropped once closing; it always frees its slot")
    func finished() {
        var open = Self.machine(inFlight: 2)
        let answered = open.finished()
        #expect(answered && open.inFlight == 1)
        var closing = Self.machine(inFlight: 2, closing: true)
        let dropped = !closing.finished()
        #expect(dropped && closing.inFlight == 1)
    }

    struct IdleRow: Sendable, CustomTestStringConvertible {
        let name: String
        let idle: Int
        let inFlight: Int
        let subscribed: Bool
        let closing: Bool
        let closes: Bool
        var testDescription: String { name }
    }

    @Test(
        "an idle tick closes a connection idle for 4 ticks with nothing in flight, no subscription and not closing",
        arguments: [
            IdleRow(name: "third tick", idle: 2, inFlight: 0, subscribed: false, closing: false, closes: false),
            IdleRow(name: "fourth tick", idle: 3, inFlight: 0, subscribed: false, closing: false, closes: true),
            IdleRow(
                name: "a request in flight", idle: 3, inFlight: 1, subscribed: false, closing: false, closes: false),
            IdleRow(name: "a subscriber", idle: 9, inFlight: 0, subscribed: true, closing: false, closes: false),
            IdleRow(name: "already closing", idle: 3, inFlight: 0, subscribed: false, closing: true, closes: false),
        ])
    func idleTick(row: IdleRow) {
        var machine = Self.machine(inFlight: row.inFlight, idle: row.idle, closing: row.closing)
        let answer = machine.idleTick(ticksToClose: 4, subscribed: row.subscribed)
        #expect(answer == row.closes)
    }
}
