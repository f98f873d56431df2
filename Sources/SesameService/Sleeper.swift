import Foundation
import SesameCore

/// Sleeping on an injected clock, type-erased so the service need not be generic.
protocol Sleeper: Sendable {
    func sleep(seconds: TimeInterval) async throws
}

struct ClockSleeper<C: WallClock>: Sleeper {
    let clock: C
    func sleep(seconds: TimeInterval) async throws {
        // Saturating: a deadline taken from a backend's number may be centuries away.
        try await clock.sleep(for: SaturatingTime.duration(seconds: seconds))
    }
}
