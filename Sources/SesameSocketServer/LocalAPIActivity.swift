import Synchronization

/// How many read bursts the local API has handled, for telling an idle daemon from a busy one
/// (``LocalAPIServer/activity``). One atomic add per burst of requests, and one load of whether
/// somebody waits for the next one (``waitForActivity(after:)``).
public final class LocalAPIActivity: Sendable {
    private let reads = Atomic<UInt64>(0)
    /// True while ``waitForActivity(after:)`` waits: the next burst (or ``wake()``) ends it.
    private let waiting = Atomic<Bool>(false)
    private let wakeUps: AsyncStream<Void>
    private let wakeUp: AsyncStream<Void>.Continuation

    public init() {
        (wakeUps, wakeUp) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    func record() {
        // Sequentially consistent (on x86 as cheap as relaxed for the add and the load): a
        // waiter that armed itself after this add sees the new count, or this sees the waiter.
        reads.wrappingAdd(1, ordering: .sequentiallyConsistent)
        if waiting.load(ordering: .sequentiallyConsistent) { wake() }
    }

    /// Read bursts so far; it only grows (wrapping past 2^64).
    public var count: UInt64 { reads.load(ordering: .sequentiallyConsistent) }

    /// Returns once ``count`` is past `count`: at once when it is already, else at the next read
    /// burst or ``wake()``. It sets no timer: a task idling here costs no wake-up. One waiter
    /// at a time; it may return without new activity (a wake-up left from an earlier wait).
    public func waitForActivity(after count: UInt64) async {
        waiting.store(true, ordering: .sequentiallyConsistent)
        guard reads.load(ordering: .sequentiallyConsistent) == count else {
            waiting.store(false, ordering: .sequentiallyConsistent)
            return
        }
        await withTaskCancellationHandler {
            var iterator = wakeUps.makeAsyncIterator()
            _ = await iterator.next()
        } onCancel: {
            wakeUp.yield()
        }
        waiting.store(false, ordering: .sequentiallyConsistent)
    }

    /// Ends the current ``waitForActivity(after:)`` as a read burst would (for activity the
    /// server does not see, such as session events); nothing when nobody waits.
    public func wake() {
        if waiting.exchange(false, ordering: .sequentiallyConsistent) { wakeUp.yield() }
    }
}
