import Foundation

/// Time arithmetic that cannot trap: a number of seconds from outside (a backend's
/// `expiresIn`, a date it put in the keyring) becomes a `Duration` without overflowing.
public enum SaturatingTime {
    /// The longest wait a sleep is given (about 31 years); anything longer sleeps this long.
    public static let longestSleep: TimeInterval = 1_000_000_000

    /// `seconds` as a `Duration`, rounded up to the millisecond: not-a-number and negative
    /// values are zero, values past ``longestSleep`` are ``longestSleep``.
    public static func duration(seconds: TimeInterval) -> Duration {
        guard seconds > 0 else { return .zero }
        let bounded = min(seconds, longestSleep)
        return .milliseconds(Int64((bounded * 1000).rounded(.up)))
    }

    /// `duration` in seconds (the inverse, for the elapsed time between two instants).
    @inlinable
    public static func seconds(_ duration: Duration) -> TimeInterval {
        let (whole, attoseconds) = duration.components
        return TimeInterval(whole) + TimeInterval(attoseconds) / 1e18
    }
}
