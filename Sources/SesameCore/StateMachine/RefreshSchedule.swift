import Foundation

/// When the daemon renews a token by itself, and how long it waits between failed attempts.
///
/// The backend's `expiresIn` is untrusted: the lifetime used for planning is clamped to
/// ``lifetimeRange`` (so `0.001` does not make a refresh storm and `1e21` does not make a
/// date no sleep can reach), and two automatic refreshes of one session are at least
/// ``minimumInterval`` apart. The token's own `expiresAt` is left as the backend said.
public struct RefreshSchedule: Sendable, Hashable {
    /// Seconds before expiry to refresh (`session.refresh_margin`).
    public var margin: TimeInterval
    /// Largest random delay added or subtracted so that many machines do not refresh at once,
    /// as a fraction of the wait (0.1 = ±10%).
    public var jitterFraction: Double

    /// The lifetimes the plan believes: shorter ones count as 60 s, longer ones as one week.
    public static let lifetimeRange: ClosedRange<TimeInterval> = 60...604_800
    /// The shortest wait between obtaining a token and renewing it by itself (seconds).
    public static let minimumInterval: TimeInterval = 30

    public init(margin: TimeInterval = 300, jitterFraction: Double = 0.1) {
        self.margin = margin
        self.jitterFraction = jitterFraction
    }

    /// The lifetime of `token` as the plan uses it: its real one clamped to ``lifetimeRange``
    /// (a negative or not-a-number lifetime counts as the shortest).
    public static func plannedLifetime(of token: IDToken) -> TimeInterval {
        let real = token.expiresAt.timeIntervalSince(token.issuedAt)
        guard real >= lifetimeRange.lowerBound else { return lifetimeRange.lowerBound }
        return min(real, lifetimeRange.upperBound)
    }

    /// The moment to refresh `token` by itself: expiry minus the margin, or half the lifetime
    /// when the margin is longer than that, with the lifetime clamped (``plannedLifetime(of:)``)
    /// and never sooner than ``minimumInterval`` after the token was obtained. `jitter` is a
    /// number in -1...1.
    public func refreshTime(for token: IDToken, jitter: Double = 0) -> Date {
        let lifetime = Self.plannedLifetime(of: token)
        let margin = self.margin.isFinite ? max(0, self.margin) : 0
        let lead = margin >= lifetime ? lifetime / 2 : margin
        let wait = lifetime - lead
        let clamped = jitter.isFinite ? max(-1, min(1, jitter)) : 0
        let fraction = jitterFraction.isFinite ? max(0, min(1, jitterFraction)) : 0
        // Jitter only ever makes the refresh earlier, never past the planned moment.
        let jittered = wait - abs(clamped) * fraction * wait
        return token.issuedAt.addingTimeInterval(max(Self.minimumInterval, jittered))
    }
}
