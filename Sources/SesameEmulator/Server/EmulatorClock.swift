import Foundation

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
