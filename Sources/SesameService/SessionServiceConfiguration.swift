import Foundation

/// The session rules the daemon's configuration decides (`[session]`, `[merge]`, `[usernames]`).
public struct SessionServiceConfiguration: Sendable, Hashable {
    /// Create an anonymous user whenever there is none (`session.anonymous_first`).
    public var anonymousFirst: Bool
    /// Seconds before expiry the daemon refreshes by itself (`session.refresh_margin`).
    public var refreshMargin: TimeInterval
    /// Seconds a merge waits for a migrator before the daemon completes it (`merge.hold`);
    /// 0 completes merges at once.
    public var mergeHold: TimeInterval
    /// Authenticated users without a username need one (`usernames.required`).
    public var usernamesRequired: Bool
    /// Names nobody may take (`usernames.reserved`), compared by key.
    public var reservedUsernames: [String]

    public init(
        anonymousFirst: Bool = true, refreshMargin: TimeInterval = 300, mergeHold: TimeInterval = 2_592_000,
        usernamesRequired: Bool = false, reservedUsernames: [String] = ["admin", "root", "support"]
    ) {
        self.anonymousFirst = anonymousFirst
        self.refreshMargin = refreshMargin
        self.mergeHold = mergeHold
        self.usernamesRequired = usernamesRequired
        self.reservedUsernames = reservedUsernames
    }
}
