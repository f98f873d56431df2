import Synchronization

/// How many read bursts the local API has handled, for telling an idle daemon from a busy one
/// (``LocalAPIServer/activity``). One relaxed atomic add per burst of requests.
public final class LocalAPIActivity: Sendable {
    private let reads = Atomic<UInt64>(0)

    public init() {}

    func record() { reads.wrappingAdd(1, ordering: .relaxed) }

    /// Read bursts so far; it only grows (wrapping past 2^64).
    public var count: UInt64 { reads.load(ordering: .relaxed) }
}
