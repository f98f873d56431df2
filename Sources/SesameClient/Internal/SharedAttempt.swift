/// The client's attempt to connect, shared: runs one operation at a time and lets every caller
/// that arrives while it runs share its result. (The daemon has no such actor: its token refresh
/// is a state of its owner, `TokenRefresh`, on the session's executor.)
///
/// The operation runs in its own task, so a caller that is cancelled does not cancel it for the
/// others. Once it has finished, the next `run` starts a new one. Typed errors pass through.
actor SharedAttempt<Value: Sendable, Failure: Error> {
    private var current: (id: UInt64, task: Task<Result<Value, Failure>, Never>)?
    private var started: UInt64 = 0

    init() {}

    /// Whether an operation is running now.
    var isRunning: Bool { current != nil }

    /// Joins the running operation, or starts `operation` when none runs.
    func run(
        _ operation: @escaping @Sendable () async throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let task: Task<Result<Value, Failure>, Never>
        if let current {
            task = current.task
        } else {
            started &+= 1
            let id = started
            task = Task {
                let result: Result<Value, Failure>
                do throws(Failure) {
                    result = .success(try await operation())
                } catch {
                    result = .failure(error)
                }
                self.finish(id)  // the task runs on this actor (it inherits the isolation of `run`)
                return result
            }
            current = (id, task)
        }
        return try await task.value.get()
    }

    private func finish(_ id: UInt64) {
        if current?.id == id { current = nil }
    }
}
