import SesameEmulator
import Synchronization

/// The emulator's clock, moved by hand: a test that needs a token older than a change, or an
/// expiry passed, advances it instead of sleeping.
public final class EmulatorTime: Sendable {
    private let milliseconds = Mutex<Int>(1_800_000_000_000)

    public init() {}

    public var clock: EmulatorClock { EmulatorClock { [self] in milliseconds.withLock { $0 } } }

    public func advance(seconds: Int) { milliseconds.withLock { $0 += seconds * 1000 } }
}
