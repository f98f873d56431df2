/// Tells a child task of the service's `run()` that what it works for ended (a sign-in flow,
/// a second-factor challenge): ``run(_:until:)`` then cancels the work, even asleep on the
/// clock, so nothing outlives the flow it was started for.
struct EndSignal: Sendable {
    private let ended: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (ended, continuation) = AsyncStream.makeStream(of: Void.self)
    }

    /// Ends the work (once; again does nothing).
    func fire() {
        continuation.finish()
    }

    /// Runs `work` until it returns or the signal fires, whichever comes first.
    func run(_ work: @escaping @Sendable () async -> Void) async {
        let ended = self.ended
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await work() }
            group.addTask { for await _ in ended {} }
            await group.next()
            group.cancelAll()
        }
    }
}
