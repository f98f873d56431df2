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
    /// On a fresh machine (no keyring), the first guest is created at a random moment within
    /// this many seconds instead of at once (`session.first_guest_window`), so machines imaged
    /// and started together spread their sign-ups; meanwhile the machine is signed out (token
    /// requests answer `no-current-user`, as before any first guest). 0: at once.
    public var firstGuestWindow: TimeInterval

    public init(
        anonymousFirst: Bool = true, refreshMargin: TimeInterval = 300, mergeHold: TimeInterval = 2_592_000,
        usernamesRequired: Bool = false, reservedUsernames: [String] = ["admin", "root", "support"],
        firstGuestWindow: TimeInterval = 0
    ) {
        self.firstGuestWindow = firstGuestWindow
        self.anonymousFirst = anonymousFirst
        self.refreshMargin = refreshMargin
        self.mergeHold = mergeHold
        self.usernamesRequired = usernamesRequired
        self.reservedUsernames = reservedUsernames
    }
}
