import Foundation

/// The daemon's own bound on second-factor guesses, whatever the backend allows (PROTOCOL.md,
/// "Second factors"): a pure machine, the caller passes the time.
///
/// Wrong codes are counted in a row, across challenges, until a code is right: a new sign-in
/// does not give a fresh set of tries. The ``wrongCodesInARow``-th wrong code ends the open
/// challenge and starts a lockout; until it ends, no challenge opens. Each lockout is twice as
/// long as the last (from ``firstLockout`` up to ``longestLockout``); a right code clears it all.
/// Held in memory only: a restart (which needs root) starts afresh.
public struct SecondFactorGuesses: Sendable, Hashable {
    /// Wrong codes that end a challenge.
    public static let wrongCodesInARow = 5
    public static let firstLockout: TimeInterval = 30
    public static let longestLockout: TimeInterval = 15 * 60

    /// What a wrong code leads to.
    public enum Verdict: Sendable, Hashable {
        /// The challenge stays open; `left` more wrong codes end it.
        case tryAgain(left: Int)
        /// That was the last try: the challenge ends, and no challenge opens for `lockout` seconds.
        case exhausted(lockout: TimeInterval)
    }

    /// Wrong codes since the last right one or the last lockout.
    public private(set) var wrongInARow = 0
    /// Lockouts since the last right code.
    public private(set) var lockouts = 0
    /// Until when no challenge opens.
    public private(set) var lockedUntil: Date?

    public init() {}

    /// Counts a wrong code the backend refused.
    public mutating func wrongCode(at now: Date) -> Verdict {
        wrongInARow += 1
        guard wrongInARow >= Self.wrongCodesInARow else { return .tryAgain(left: Self.wrongCodesInARow - wrongInARow) }
        let lockout = min(Self.longestLockout, Self.firstLockout * pow(2, Double(min(lockouts, 30))))
        wrongInARow = 0
        lockouts += 1
        lockedUntil = now.addingTimeInterval(lockout)
        return .exhausted(lockout: lockout)
    }

    /// A right code: everything is forgotten.
    public mutating func rightCode() {
        self = SecondFactorGuesses()
    }

    /// The seconds left before a challenge may open; nil when one may open now.
    public func lockoutLeft(at now: Date) -> TimeInterval? {
        guard let lockedUntil, lockedUntil > now else { return nil }
        return lockedUntil.timeIntervalSince(now)
    }
}
