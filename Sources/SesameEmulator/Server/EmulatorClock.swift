import Foundation
import Synchronization

/// The emulator's source of "now" (milliseconds since 1970), injectable so tests can move time
/// instead of sleeping.
public struct EmulatorClock: Sendable {
    private let read: @Sendable () -> Int

    /// A clock reading `now()` (milliseconds since 1970).
    public init(_ now: @escaping @Sendable () -> Int) { self.read = now }

    /// The system clock.
    public static let system = EmulatorClock { Int((Date().timeIntervalSince1970 * 1000).rounded(.down)) }

    /// Milliseconds since 1970.
    public func milliseconds() -> Int { read() }
}

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
    func skewed(by skew: ClockSkew) -> EmulatorClock { EmulatorClock { milliseconds() + skew.milliseconds } }
}
