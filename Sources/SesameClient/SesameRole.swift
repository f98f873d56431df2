/// The role the daemon gives this process (PROTOCOL.md, Access). Each includes the ones before.
public enum SesameRole: String, Sendable, Hashable, Comparable, CaseIterable {
    /// May call `hello` only.
    case none
    /// May read the state, subscribe and check usernames.
    case observer
    /// May also get ID tokens.
    case reader
    /// May also change the session.
    case manager

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
