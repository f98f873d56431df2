import Foundation

/// A clock that can sleep and also tell the calendar time, so token expiry (a `Date`) and
/// waiting (a `Duration`) come from one injected source. Tests use a manual one.
public protocol WallClock: Clock where Duration == Swift.Duration {
    /// The current calendar time according to this clock.
    var date: Date { get }
}

/// The real clock.
public struct SystemWallClock: WallClock {
    private let base = ContinuousClock()

    public init() {}

    public var now: ContinuousClock.Instant { base.now }
    public var minimumResolution: Duration { base.minimumResolution }
    public var date: Date { Date() }

    public func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
        try await base.sleep(until: deadline, tolerance: tolerance)
    }
}
