import Foundation

/// Exponential backoff with jitter: 1 s doubling to at most 60 s (docs/protocol.md, anonymous first).
public struct Backoff: Sendable, Hashable {
    public var initial: TimeInterval
    public var maximum: TimeInterval
    public private(set) var attempt: Int

    public init(initial: TimeInterval = 1, maximum: TimeInterval = 60) {
        self.initial = initial
        self.maximum = maximum
        self.attempt = 0
    }

    /// The delay before the next attempt; `random` in 0...1 spreads it over 50–100 %.
    public mutating func nextDelay(random: Double) -> TimeInterval {
        let exponent = min(attempt, 30)
        attempt += 1
        let base = min(maximum, initial * pow(2, Double(exponent)))
        return base * (0.5 + 0.5 * max(0, min(1, random)))
    }

    public mutating func reset() { attempt = 0 }
}
