import SesameLocalAPI
import Testing

@testable import SesameClient

@Suite("Pending calls: ids, answers and the in-flight cap")
struct PendingCallsTests {
    /// A request line that names its id, to see which one is sent.
    func line(_ id: Int64) -> [UInt8] { Array("\(id)".utf8) }

    @Test func idsGrowAndAreNeverReused() {
        var calls = PendingCalls(maximumInFlight: 2)
        let first = calls.allocateID()
        _ = calls.answered(first)
        #expect(calls.allocateID() == first + 1)
    }

    @Test func requestsBeyondTheCapQueueInOrderAndTakeFreedSlots() {
        var calls = PendingCalls(maximumInFlight: 2)
        var sent: [[UInt8]] = []
        for _ in 0..<4 {
            let id = calls.allocateID()
            if let now = calls.add(id, .ignore, line: line(id)) { sent.append(now) }
        }
        #expect(sent == [line(1), line(2)])
        #expect(calls.inFlightCount == 2)
        #expect(calls.queuedCount == 2)
        #expect(calls.answered(2).send == [line(3)])
        #expect(calls.answered(1).send == [line(4)])
        #expect(calls.answered(3).send.isEmpty)
        #expect(calls.inFlightCount == 1)
    }

    @Test func anAnswerNamesWhatItsIdWaitedFor() {
        var calls = PendingCalls(maximumInFlight: 4)
        let hello = calls.allocateID()
        _ = calls.add(hello, .hello, line: line(hello))
        let subscribe = calls.allocateID()
        _ = calls.add(subscribe, .subscribe(.migrator), line: line(subscribe))
        guard case .subscribe(.migrator)? = calls.answered(subscribe).kind else {
            Issue.record("the subscribe answer lost its mode")
            return
        }
        guard case .hello? = calls.answered(hello).kind else {
            Issue.record("the hello answer lost its kind")
            return
        }
        // An id answered twice, or never sent, waits for nothing.
        #expect(calls.answered(hello).kind == nil)
        #expect(calls.answered(99).kind == nil)
    }

    @Test func aCancelledQueuedRequestIsNeverSentAndASentOneKeepsItsSlot() {
        var calls = PendingCalls(maximumInFlight: 1)
        let sent = calls.allocateID()
        _ = calls.add(sent, .ignore, line: line(sent))
        let queued = calls.allocateID()
        _ = calls.add(queued, .ignore, line: line(queued))
        let last = calls.allocateID()
        _ = calls.add(last, .ignore, line: line(last))
        #expect(calls.cancel(queued) != nil)
        #expect(calls.cancel(sent) != nil)
        // The cancelled sent request still holds the slot until the daemon answers it.
        #expect(calls.inFlightCount == 1)
        let answer = calls.answered(sent)
        #expect(answer.kind == nil)
        #expect(answer.send == [line(last)])
    }

    @Test func losingTheConnectionForgetsEverything() {
        var calls = PendingCalls(maximumInFlight: 1)
        for _ in 0..<3 {
            let id = calls.allocateID()
            _ = calls.add(id, .resync, line: line(id))
        }
        #expect(calls.removeAll().isEmpty)
        #expect(calls.inFlightCount == 0)
        #expect(calls.queuedCount == 0)
        #expect(calls.answered(1).kind == nil)
    }
}
