import Foundation

/// The daemon's session state (PROTOCOL.md, `State`). Never contains a token.
public struct SesameState: Sendable, Hashable {
    public var status: SesameStatus
    /// Nil when `signedOut` or `starting`.
    public var user: SesameUser?
    /// When the ID token the daemon holds expires; nil when it holds none.
    public var tokenExpiresAt: Date?
    public var connectivity: SesameConnectivity
    /// True when usernames are required and the authenticated user has none.
    public var needsUsername: Bool
    public var pendingMerges: [SesameMerge]
    /// The version of the state within one daemon instance; it grows by one per state event.
    public var sequence: Int64
    /// Why ``SesameClient/stateChanges`` yielded this state; nil for the results of calls.
    public var changeReason: SesameChangeReason?
    /// The protocol `State` object as one line of compact JSON (for tools that print it).
    public var json: String

    public init(
        status: SesameStatus, user: SesameUser?, tokenExpiresAt: Date?, connectivity: SesameConnectivity,
        needsUsername: Bool, pendingMerges: [SesameMerge], sequence: Int64,
        changeReason: SesameChangeReason? = nil, json: String = "{}"
    ) {
        self.status = status
        self.user = user
        self.tokenExpiresAt = tokenExpiresAt
        self.connectivity = connectivity
        self.needsUsername = needsUsername
        self.pendingMerges = pendingMerges
        self.sequence = sequence
        self.changeReason = changeReason
        self.json = json
    }

    /// Whether a user is signed in (anonymous or not).
    public var hasUser: Bool { user != nil }

    /// Whole minutes the held ID token stays valid after `now`; nil without a token, 0 when
    /// it has expired.
    public func tokenValidityMinutes(now: Date = Date()) -> Int? {
        guard let tokenExpiresAt else { return nil }
        return max(0, Int(tokenExpiresAt.timeIntervalSince(now) / 60))
    }
}
