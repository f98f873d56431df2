/// Reconnection delays: `initial` doubling up to `maximum`, each multiplied by a random factor
/// in 0.5...1.0 (jitter), so many clients of a restarted daemon do not reconnect in lockstep.
struct Backoff: Sendable {
    let initial: Duration
    let maximum: Duration
    private var current: Duration

    init(initial: Duration = .milliseconds(50), maximum: Duration = .seconds(2)) {
        self.initial = initial
        self.maximum = maximum
        self.current = initial
    }

    /// The next delay, jittered.
    mutating func next<G: RandomNumberGenerator>(using generator: inout G) -> Duration {
        let base = current
        current = min(current * 2, maximum)
        return base * Double.random(in: 0.5...1.0, using: &generator)
    }

    mutating func next() -> Duration {
        var generator = SystemRandomNumberGenerator()
        return next(using: &generator)
    }

    mutating func reset() { current = initial }
}
