import Foundation
import SesameCore
import Testing

@testable import SesameService

/// ``SessionEvents``: the event bus the service owns, on its own.
@Suite("SessionEvents")
struct SessionEventsTests {
    let state = AuthState(
        status: .signedOut, user: nil, tokenExpiresAt: nil, connectivity: .online, needsUsername: false,
        pendingMerges: [], sequence: 0)

    @Test(
        "a sink gets the snapshot when added and then each event before emit returns, stamped with sequence and index")
    func sinkIsSynchronous() {
        var bus = SessionEvents()
        let heard = Heard<[SessionEvent]>([])
        bus.add({ event in heard.withLockedValue { $0.append(event) } }, state: state, token: nil)
        #expect(heard.withLockedValue { $0.map(\.kind) } == [.snapshot])
        #expect(heard.withLockedValue { $0[0].index } == 0)

        bus.emit(.connectivityChanged, state: state, token: nil)
        #expect(heard.withLockedValue { $0.count } == 2)
        bus.emit(
            .mergeRecorded(Merge(mergeId: "m", fromUid: "a", toUid: "b", createdAt: Date())), state: state, token: nil)
        let events = heard.withLockedValue { $0 }
        #expect(events.map(\.index) == [0, 1, 2])
        // Only kinds that advance it move the sequence; the state carries the event's sequence.
        #expect(events.map(\.sequence) == [1, 2, 2])
        #expect(events.map(\.state.sequence) == [1, 2, 2])
        #expect(bus.sequence == 2 && bus.emitted == 2)
    }

    @Test(
        "a stream starts with the snapshot, gets every event, and ends at finish; one opened after holds only its snapshot"
    )
    func streams() async {
        var bus = SessionEvents()
        let stream = bus.open(state: state, token: nil)
        bus.emit(.userUpdated, state: state, token: nil)
        bus.announceShutdown(reason: "test", state: state, token: nil)
        bus.announceShutdown(reason: "again", state: state, token: nil)
        bus.finish()
        bus.emit(.userUpdated, state: state, token: nil)
        var kinds: [SessionEvent.Kind] = []
        for await event in stream { kinds.append(event.kind) }
        #expect(kinds == [.snapshot, .userUpdated, .shutdown(reason: "test")])
        var late: [SessionEvent.Kind] = []
        for await event in bus.open(state: state, token: nil) { late.append(event.kind) }
        #expect(late == [.snapshot])
    }

    @Test("finish lets the sinks go: a sink hears nothing after it")
    func finishDropsSinks() {
        var bus = SessionEvents()
        let heard = Heard(0)
        bus.add({ _ in heard.withLockedValue { $0 += 1 } }, state: state, token: nil)
        bus.finish()
        bus.emit(.userUpdated, state: state, token: nil)
        #expect(heard.withLockedValue { $0 } == 1)
    }
}

/// A value sinks append to from any thread.
final class Heard<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLockedValue<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&value) } }
}
