import Foundation

/// Exponential backoff with jitter: `initial` doubling to at most `maximum`, each delay spread
/// over 50–100 % of its step so that many retriers (clients of a restarted daemon, a daemon's
/// retries against its backend) do not retry in lockstep.
///
/// The default is the daemon's 1 s doubling to at most 60 s (docs/protocol.md, anonymous
/// first); SesameClient reconnects with 50 ms doubling to 2 s. The randomness is a parameter
/// (`random` in 0...1, or a generator), so schedules are tested with fixed values.
public struct Backoff: Sendable, Hashable {
    public var initial: Duration
    public var maximum: Duration
    /// How many delays were taken since the last ``reset()``.
    public private(set) var attempt: Int

    public init(initial: Duration = .seconds(1), maximum: Duration = .seconds(60)) {
        self.initial = initial
        self.maximum = maximum
        self.attempt = 0
    }

    /// The delay before the next attempt; `random` in 0...1 spreads it over 50–100 % of the step.
    public mutating func next(random: Double) -> Duration {
        let exponent = min(attempt, 30)
        attempt += 1
        let step = min(maximum, initial * (1 << exponent))
        return step * (0.5 + 0.5 * max(0, min(1, random)))
    }

    /// The next delay, jittered by `generator`.
    public mutating func next(using generator: inout some RandomNumberGenerator) -> Duration {
        next(random: Double.random(in: 0...1, using: &generator))
    }

    /// The next delay, jittered by the system's generator.
    public mutating func next() -> Duration {
        var generator = SystemRandomNumberGenerator()
        return next(using: &generator)
    }

    /// ``next(random:)`` in seconds, for schedules kept in `Date`s (``MaintenancePlan``).
    public mutating func nextDelay(random: Double) -> TimeInterval {
        SaturatingTime.seconds(next(random: random))
    }

    public mutating func reset() { attempt = 0 }
}
