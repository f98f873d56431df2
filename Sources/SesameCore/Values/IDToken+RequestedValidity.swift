import Foundation

extension IDToken {
    /// What a refresh cannot give: a fresh token lasts as long as this one was issued for (the
    /// backend's lifetime), and a minute goes to the refresh itself and to clocks that differ.
    public static let validityHeadroom: TimeInterval = 60

    /// A `minValidity` up to this (the protocol's default) is honoured as asked, whatever the
    /// token's lifetime: a backend whose tokens live less than that is refreshed for each such
    /// call, as before.
    public static let honouredValidity: TimeInterval = 300

    /// The most validity a refresh can promise: this token's lifetime less
    /// ``validityHeadroom``, at least zero.
    public var satisfiableValidity: TimeInterval {
        max(0, expiresAt.timeIntervalSince(issuedAt) - Self.validityHeadroom)
    }

    /// `minValidity` bounded by ``satisfiableValidity`` (never below ``honouredValidity``).
    /// Asked for more than any fresh token has (`minValidity: 3600` of a one-hour token), a
    /// refresh would never satisfy it and every call would refresh and rewrite the keyring;
    /// bounded, a fresh token satisfies it for at least ``validityHeadroom``, so such calls
    /// cause at most one refresh a minute.
    public func boundedValidity(_ minValidity: TimeInterval) -> TimeInterval {
        guard minValidity > Self.honouredValidity else { return minValidity }
        return max(Self.honouredValidity, min(minValidity, satisfiableValidity))
    }
}
