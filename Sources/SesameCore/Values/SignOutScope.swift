/// Which sessions of the account a sign-out ends (`signOut`'s `scope`).
public enum SignOutScope: String, Sendable, Hashable, CaseIterable {
    /// This machine's session only (the default).
    case local
    /// Every other session of the account; this one stays signed in.
    case others
    /// Every session of the account, this one included.
    case everywhere
}

/// Which sessions ``RemoteAuthProvider/revokeSessions(_:scope:)`` ends beside the one that
/// asks: the others only, or all of them.
public enum SessionRevocationScope: String, Sendable, Hashable {
    case others
    case all
}
