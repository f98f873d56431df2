import Testing

@testable import SesameClient

@Suite("SharedAttempt (the client's shared connection attempt)")
struct SharedAttemptTests {
    private struct Refused: Error, Equatable {}

    private actor Gate {
        private var waiters: [CheckedContinuation<Void, Never>] = []
        private var open = false
        private(set) var runs = 0
        func enter() async {
            runs += 1
            if open { return }
            await withCheckedContinuation { waiters.append($0) }
        }
        func release() {
            open = true
            waiters.forEach { $0.resume() }
            waiters = []
        }
    }

    @Test("callers that arrive while it runs share one operation and its value")
    func sharesOneRun() async throws {
        let flight = SharedAttempt<Int, Never>()
        let gate = Gate()
        async let first = flight.run {
            await gate.enter()
            return 7
        }
        while await !flight.isRunning { await Task.yield() }
        async let second = flight.run {
            await gate.enter()
            return 8
        }
        async let third = flight.run {
            await gate.enter()
            return 9
        }
        while await gate.runs == 0 { await Task.yield() }
        await gate.release()
        let values = await [first, second, third]
        #expect(values == [7, 7, 7])
        #expect(await gate.runs == 1)
        #expect(await !flight.isRunning)
    }

    @Test("after an operation ends the next call starts a new one")
    func startsAgainAfterwards() async {
        let flight = SharedAttempt<Int, Never>()
        let first = await flight.run { 1 }
        let second = await flight.run { 2 }
        #expect([first, second] == [1, 2])
    }

    @Test("a typed error reaches every caller, and the next call runs again")
    func typedErrorsPassThrough() async throws {
        let flight = SharedAttempt<Int, Refused>()
        await #expect(throws: Refused()) { try await flight.run { () async throws(Refused) -> Int in throw Refused() } }
        let value = try await flight.run { () async throws(Refused) -> Int in 3 }
        #expect(value == 3)
    }

    @Test("a cancelled caller does not cancel the run the others share")
    func cancellationIsPerCaller() async throws {
        let flight = SharedAttempt<Int, Never>()
        let gate = Gate()
        let cancelled = Task {
            await flight.run {
                await gate.enter()
                return 5
            }
        }
        while await gate.runs == 0 { await Task.yield() }
        cancelled.cancel()
        async let joined = flight.run { 6 }
        await gate.release()
        #expect(await joined == 5)
        #expect(await cancelled.value == 5)
    }
}
