import SesameCore
import Testing

@testable import SesameService

/// The one generic `drive` every multi-step flow of the service runs.
@Suite("StepMachine drive")
struct StepMachineDriveTests {
    struct Failure: Error, Equatable {}

    /// Counts up to a limit; a failed step is retried once, then the job gives up.
    struct Counter: StepMachine {
        enum Action: Hashable, Sendable {
            case step(Int)
            case done(Int)
            case giveUp
        }
        enum Event: Hashable, Sendable {
            case stepped
            case failed
        }
        var count = 0
        var failures = 0
        let limit: Int

        mutating func handle(_ event: Event) -> Action {
            switch event {
            case .stepped:
                count += 1
                return count == limit ? .done(count) : .step(count)
            case .failed:
                failures += 1
                return failures > 1 ? .giveUp : .step(count)
            }
        }

        static func failed(_ error: Failure) -> Event { .failed }
    }

    @Test("performs each action the machine returns, in order, until perform finishes, and returns that outcome")
    func runsToTheEnd() async {
        var machine = Counter(limit: 3)
        var performed: [Counter.Action] = []
        let outcome = await machine.drive(from: .step(0)) {
            (action) async throws(Failure) -> StepResult<Counter.Event, Int?> in
            performed.append(action)
            switch action {
            case .step: return .next(.stepped)
            case .done(let count): return .finished(count)
            case .giveUp: return .finished(nil)
            }
        }
        #expect(outcome == 3)
        #expect(performed == [.step(0), .step(1), .step(2), .done(3)])
    }

    @Test("a thrown error is told to `failed` and fed back as the machine's failure event")
    func failuresAreFedBack() async {
        var machine = Counter(limit: 3)
        var told = 0
        var performed: [Counter.Action] = []
        let outcome = await machine.drive(from: .step(0), failed: { _ in told += 1 }) {
            (action) async throws(Failure) -> StepResult<Counter.Event, Int?> in
            performed.append(action)
            switch action {
            case .step: throw Failure()
            case .done(let count): return .finished(count)
            case .giveUp: return .finished(nil)
            }
        }
        #expect(outcome == nil)
        #expect(told == 2)
        #expect(performed == [.step(0), .step(0), .giveUp])
        #expect(machine.failures == 2)
    }
}
