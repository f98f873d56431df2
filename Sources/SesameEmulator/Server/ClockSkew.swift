import Synchronization

/// How far one port's clock runs ahead of the configured clock (fault `clockSkewSeconds`;
/// negative: behind). Shared by the port's store, which reads it, and the port's fault settings,
/// which set it.
final class ClockSkew: Sendable {
    private let seconds = Mutex(0)

    func set(seconds value: Int) { seconds.withLock { $0 = value } }

    var milliseconds: Int { seconds.withLock { $0 } * 1000 }
}

extension EmulatorClock {
    /// This clock moved by `skew`.
    func skewed(by skew: ClockSkew) -> EmulatorClock {
        EmulatorClock { milliseconds() + skew.milliseconds }
    }
}
