import Foundation

/// The profile of the signed-in account, as the backend reports it.
public struct User: Sendable, Hashable, Codable {
    public var uid: String
    public var isAnonymous: Bool
    public var email: String?
    public var emailVerified: Bool
    public var displayName: String?
    /// The username as the person typed it (NFC), when usernames are on and one is set.
    public var username: String?
    /// Provider ids (`password`, `google.com`, …); empty for an anonymous user.
    public var providers: [String]
    public var createdAt: Date?
    public var lastSignInAt: Date?
    /// The enrolled second factors; empty when none.
    public var factors: [SecondFactor]
    /// An address change waiting for its owner's confirmation (`changeEmail`), or nil.
    public var pendingEmail: String?

    public init(
        uid: String, isAnonymous: Bool, email: String? = nil, emailVerified: Bool = false,
        displayName: String? = nil, username: String? = nil, providers: [String] = [],
        createdAt: Date? = nil, lastSignInAt: Date? = nil, factors: [SecondFactor] = [], pendingEmail: String? = nil
    ) {
        self.factors = factors
        self.pendingEmail = pendingEmail
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

extension User {
    private enum CodingKeys: String, CodingKey {
        case uid, isAnonymous, email, emailVerified, displayName, username, providers, createdAt, lastSignInAt
        case factors, pendingEmail
    }

    /// Reads a stored user; keyrings written before second factors existed have no `factors`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            uid: try c.decode(String.self, forKey: .uid), isAnonymous: try c.decode(Bool.self, forKey: .isAnonymous),
            email: try c.decodeIfPresent(String.self, forKey: .email),
            emailVerified: try c.decodeIfPresent(Bool.self, forKey: .emailVerified) ?? false,
            displayName: try c.decodeIfPresent(String.self, forKey: .displayName),
            username: try c.decodeIfPresent(String.self, forKey: .username),
            providers: try c.decodeIfPresent([String].self, forKey: .providers) ?? [],
            createdAt: try c.decodeIfPresent(Date.self, forKey: .createdAt),
            lastSignInAt: try c.decodeIfPresent(Date.self, forKey: .lastSignInAt),
            factors: try c.decodeIfPresent([SecondFactor].self, forKey: .factors) ?? [],
            pendingEmail: try c.decodeIfPresent(String.self, forKey: .pendingEmail))
    }
}
