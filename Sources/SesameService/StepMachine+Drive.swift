import SesameCore

/// What performing one action of a ``StepMachine`` led to.
enum StepResult<Event, Outcome> {
    /// Feed this event to the machine and perform the action it returns.
    case next(Event)
    /// The job is over, with this outcome.
    case finished(Outcome)
}

extension StepMachine {
    /// Runs the job from `first` to its end: performs each action, feeds back what it led to
    /// (a thrown error as ``StepMachine/failed(_:)``'s event) and returns the outcome `perform`
    /// finishes with. The one loop every multi-step flow of the service runs; a flow only says
    /// how to perform each action.
    ///
    /// Runs on the caller's actor, so `perform` may read and change its state; as after any
    /// `await` there, it re-checks what it read before acting.
    /// - Parameters:
    ///   - first: the machine's first action (its `start(…)`).
    ///   - failed: told each failure before it is fed back (to log it).
    ///   - perform: performs one action.
    mutating func drive<Outcome>(
        from first: Action, isolation: isolated (any Actor)? = #isolation, failed: (Failure) -> Void = { _ in },
        _ perform: (Action) async throws(Failure) -> StepResult<Event, Outcome>
    ) async -> Outcome {
        var action = first
        while true {
            do throws(Failure) {
                switch try await perform(action) {
                case .next(let event): action = handle(event)
                case .finished(let outcome): return outcome
                }
            } catch {
                failed(error)
                action = handle(Self.failed(error))
            }
        }
    }
}
