import Foundation

/// The signed-in user as the daemon reports it (PROTOCOL.md, `User`).
public struct SesameUser: Sendable, Hashable {
    /// The backend's user id (a Firebase uid or a Supabase UUID); stable across linking, changes on sign-in to another account.
    public var uid: String
    public var isAnonymous: Bool
    public var email: String?
    public var emailVerified: Bool
    public var displayName: String?
    public var username: String?
    /// Provider ids (`password`, `google.com`, …); empty for an anonymous user.
    public var providers: [String]
    public var createdAt: Date?
    public var lastSignInAt: Date?

    public init(
        uid: String, isAnonymous: Bool, email: String? = nil, emailVerified: Bool = false,
        displayName: String? = nil, username: String? = nil, providers: [String] = [],
        createdAt: Date? = nil, lastSignInAt: Date? = nil
    ) {
        self.uid = uid
        self.isAnonymous = isAnonymous
        self.email = email
        self.emailVerified = emailVerified
        self.displayName = displayName
        self.username = username
        self.providers = providers
        self.createdAt = createdAt
        self.lastSignInAt = lastSignInAt
    }
}
