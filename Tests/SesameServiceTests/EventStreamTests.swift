import Foundation
import Logging
import SesameCore
import SesameService
import SesameTesting
import Testing

/// `SessionService.events()`: the one-way flow from the service to its consumers.
@Suite("SessionService: event streams")
struct EventStreamTests {
    @Test("each stream starts with a snapshot of the state, then gets every event in order, with consecutive sequences")
    func snapshotThenEvents() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            _ = try await next(&events) { $0.reason == .anonymousCreated }
            var late = await harness.service.events().makeAsyncIterator()
            let snapshot = try #require(await late.next())
            let state = await harness.service.state
            #expect(snapshot.kind == .snapshot)
            #expect(snapshot.state == state && snapshot.sequence == state.sequence)
            #expect(snapshot.index == (await harness.service.emittedEvents))

            _ = try await harness.service.accounts.createAccount(email: "ann@example.com", password: "secret1")
            var sequences: [Int64] = []
            var indexes: [Int64] = []
            while let event = await late.next() {
                if event.kind.advancesSequence { sequences.append(event.sequence) }
                indexes.append(event.index)
                if event.isIdTokenChanged { break }
            }
            #expect(sequences == Array(snapshot.sequence + 1...snapshot.sequence + Int64(sequences.count)))
            #expect(indexes == Array(snapshot.index + 1...snapshot.index + Int64(indexes.count)))
            // What the flow returned is the state after its last event.
            #expect(await harness.service.state.sequence == sequences.last)
        }
    }

    @Test(
        "a publish sink hears the snapshot before publish returns, and every event a flow caused before the flow returns"
    )
    func sinkHearsBeforeTheFlowReturns() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            _ = try await next(&events) { $0.reason == .anonymousCreated }
            let heard = Heard<[SessionEvent]>([])
            await harness.service.publish { event in heard.withLockedValue { $0.append(event) } }
            #expect(heard.withLockedValue { $0.map(\.kind) } == [.snapshot])

            let state = try await harness.service.accounts.createAccount(email: "ann@example.com", password: "secret1")
            let last = try #require(heard.withLockedValue { $0.last })
            #expect(heard.withLockedValue { $0.count } > 1)
            #expect(last.index == (await harness.service.emittedEvents))
            #expect(last.sequence == state.sequence)
        }
    }

    @Test("after shutdown, every stream says shutdown and ends; a stream opened then holds only the snapshot")
    func endsAfterShutdown() async throws {
        let clock = ManualClock()
        let service = SessionService(
            provider: FakeRemoteAuthProvider(clock: clock), store: InMemorySessionStore(), clock: clock,
            configuration: .init(anonymousFirst: false),
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        try await service.start()
        let stream = await service.events()
        await service.shutdown(reason: "test")
        var kinds: [SessionEvent.Kind] = []
        for await event in stream { kinds.append(event.kind) }
        #expect(kinds == [.snapshot, .shutdown(reason: "test")])
        var after: [SessionEvent.Kind] = []
        for await event in await service.events() { after.append(event.kind) }
        #expect(after == [.snapshot])
    }
}
