import Foundation

/// When the daemon renews a token by itself, and how long it waits between failed attempts.
public struct RefreshSchedule: Sendable, Hashable {
    /// Seconds before expiry to refresh (`session.refresh_margin`).
    public var margin: TimeInterval
    /// Largest random delay added or subtracted so that many machines do not refresh at once,
    /// as a fraction of the wait (0.1 = ±10%).
    public var jitterFraction: Double

    public init(margin: TimeInterval = 300, jitterFraction: Double = 0.1) {
        self.margin = margin
        self.jitterFraction = jitterFraction
    }

    /// The moment to refresh `token` by itself: expiry minus the margin, or half the lifetime
    /// when the margin is longer than that. `jitter` is a number in -1...1.
    public func refreshTime(for token: IDToken, jitter: Double = 0) -> Date {
        let lifetime = max(0, token.expiresAt.timeIntervalSince(token.issuedAt))
        let lead = margin >= lifetime ? lifetime / 2 : margin
        let base = token.expiresAt.addingTimeInterval(-lead)
        let wait = base.timeIntervalSince(token.issuedAt)
        let clamped = max(-1, min(1, jitter))
        // Jitter only ever makes the refresh earlier, never past the planned moment.
        return base.addingTimeInterval(-abs(clamped) * jitterFraction * max(0, wait))
    }
}
