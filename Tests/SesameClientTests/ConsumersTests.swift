import Foundation
import SesameLocalAPI
import Synchronization
import Testing

@testable import SesameClient

@Suite("Consumers: the streams and listeners, each given a thing once")
struct ConsumersTests {
    /// What a consumer was given.
    final class Given: Sendable {
        let states = Mutex<[Int64]>([])
        var all: [Int64] { states.withLock { $0 } }
    }

    static func state(_ sequence: Int64, merges: [SesameMerge] = []) -> SesameState {
        SesameState(
            status: .anonymous, user: SesameUser(uid: "guest-1", isAnonymous: true), tokenExpiresAt: nil,
            connectivity: .online, needsUsername: false, pendingMerges: merges, sequence: sequence)
    }

    static let merge = SesameMerge(
        mergeId: "m1", fromUid: "guest-1", toUid: "ann", createdAt: Date(timeIntervalSince1970: 0))

    func listener(_ given: Given) -> Consumer {
        Consumer(sink: .stateListener { state in given.states.withLock { $0.append(state.sequence) } })
    }

    @Test func theModeFollowsTheConsumers() {
        var consumers = Consumers()
        #expect(consumers.desiredMode == .none)
        let (_, states) = AsyncThrowingStream.makeStream(of: SesameState.self)
        _ = consumers.add(1, Consumer(sink: .states(states)), current: nil, instance: nil, withMerges: false)
        #expect(consumers.desiredMode == .normal)
        #expect(!consumers.wantsNotifications)
        let (_, merges) = AsyncThrowingStream.makeStream(of: SesameMerge.self)
        _ = consumers.add(2, Consumer(sink: .merges(merges)), current: nil, instance: nil, withMerges: false)
        #expect(consumers.desiredMode == .migrator)
        consumers.remove(2)
        #expect(consumers.desiredMode == .normal)
        consumers.remove(1)
        #expect(consumers.isEmpty)
    }

    @Test func aConsumerRemovedBeforeItWasAddedIsFinishedAtOnce() async throws {
        var consumers = Consumers()
        consumers.remove(7)
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: SesameState.self)
        let added = consumers.add(
            7, Consumer(sink: .states(continuation)), current: Self.state(1), instance: "i1", withMerges: false)
        #expect(!added)
        #expect(consumers.isEmpty)
        var iterator = stream.makeAsyncIterator()
        let end = try await iterator.next()
        #expect(end == nil)
    }

    @Test func aLateConsumerStartsFromTheCurrentStateAndItsMerges() async throws {
        var consumers = Consumers()
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: SesameMerge.self)
        _ = consumers.add(
            1, Consumer(sink: .merges(continuation)), current: Self.state(3, merges: [Self.merge]), instance: "i1",
            withMerges: true)
        consumers.offer(merge: Self.merge)
        consumers.finish(throwing: nil)
        var given: [String] = []
        for try await merge in stream { given.append(merge.mergeId) }
        #expect(given == ["m1"])
    }

    @Test func everyConsumerIsGivenAStateOnce() {
        var consumers = Consumers()
        let first = Given()
        let second = Given()
        _ = consumers.add(1, listener(first), current: Self.state(1), instance: "i1", withMerges: false)
        _ = consumers.add(2, listener(second), current: nil, instance: "i1", withMerges: false)
        consumers.offer(state: Self.state(1), instance: "i1", withMerges: false)
        consumers.offer(state: Self.state(2), instance: "i1", withMerges: false)
        consumers.offer(state: Self.state(2), instance: "i1", withMerges: false)
        // A restarted daemon's first state is new, whatever its sequence.
        consumers.offer(state: Self.state(1), instance: "i2", withMerges: false)
        #expect(first.all == [1, 2, 1])
        #expect(second.all == [1, 2, 1])
    }

    @Test func finishingByAPredicateEndsOnlyThoseConsumers() async throws {
        var consumers = Consumers()
        let (states, stateContinuation) = AsyncThrowingStream.makeStream(of: SesameState.self)
        let (_, mergeContinuation) = AsyncThrowingStream.makeStream(of: SesameMerge.self)
        _ = consumers.add(1, Consumer(sink: .states(stateContinuation)), current: nil, instance: nil, withMerges: false)
        _ = consumers.add(2, Consumer(sink: .merges(mergeContinuation)), current: nil, instance: nil, withMerges: false)
        consumers.finish(throwing: SesameClientError.connectionClosed) { $0.wantsMerges }
        #expect(consumers.desiredMode == .normal)
        consumers.finish(throwing: nil)
        var iterator = states.makeAsyncIterator()
        let end = try await iterator.next()
        #expect(end == nil)
    }
}
