import Foundation

extension IDToken {
    /// What a refresh cannot give: a fresh token lasts as long as this one was issued for (the
    /// backend's lifetime), and a minute goes to the refresh itself and to clocks that differ.
    public static let validityHeadroom: TimeInterval = 60

    /// The most validity a caller can be promised: this token's lifetime less
    /// ``validityHeadroom``, at least zero.
    public var satisfiableValidity: TimeInterval {
        max(0, expiresAt.timeIntervalSince(issuedAt) - Self.validityHeadroom)
    }

    /// `minValidity` bounded by ``satisfiableValidity``. Asked for more than any fresh token
    /// has (`minValidity: 3600` of a one-hour token), a refresh would never satisfy it and every
    /// call would refresh and rewrite the keyring; bounded, a fresh token satisfies it for at
    /// least ``validityHeadroom``, so such calls cause at most one refresh a minute.
    ///
    /// A token that lives no longer than twice the headroom (two minutes: test and emulator
    /// set-ups, never the backends' hour) is not bounded: its whole life is within the margin.
    public func boundedValidity(_ minValidity: TimeInterval) -> TimeInterval {
        guard expiresAt.timeIntervalSince(issuedAt) > 2 * Self.validityHeadroom else { return minValidity }
        return min(minValidity, satisfiableValidity)
    }
}
