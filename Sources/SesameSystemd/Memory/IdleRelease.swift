import CSystemd

/// When an idle process gives memory back: checked every `delay` with a count of what it did
/// (requests, session events), it releases once the count stayed the same for a whole check
/// interval, and not again until something happened since. So an idle daemon releases once,
/// between one and two intervals after its last request, and a busy one never does. Once it
/// released (``isReleased``) there is nothing to check until something happens: the caller
/// waits for activity instead of checking on.
public struct IdleRelease: Sendable, Equatable {
    private var lastActivity: UInt64?
    private var released = false

    public init() {}

    /// Whether the last check released (or found the daemon still idle since a release).
    public var isReleased: Bool { released }

    /// Called once per interval with the activity count; true: release now.
    public mutating func shouldRelease(activity: UInt64) -> Bool {
        defer { lastActivity = activity }
        guard activity == lastActivity else {
            released = false
            return false
        }
        guard !released else { return false }
        released = true
        return true
    }

    /// Gives back what an idle daemon holds and does not use: its executable's code pages
    /// (``ExecutableCode/releaseUnused()``) and the free memory of malloc's heaps.
    /// - Returns: the resident bytes of code released.
    @discardableResult
    public static func releaseMemory() -> Int {
        let code = ExecutableCode.releaseUnused()
        #if canImport(Glibc)
        malloc_trim(0)
        #endif
        return code.residentBytes
    }
}
