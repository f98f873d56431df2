import Foundation

/// The signed-in user as the daemon reports it (PROTOCOL.md, `User`): the wire object, and
/// SesameClient's public value.
public struct SesameUser: Sendable, Hashable {
    /// The backend's user id (a Firebase uid or a Supabase UUID); stable across linking,
    /// changes on sign-in to another account.
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
    /// The enrolled second factors; empty when none.
    public var factors: [SesameSecondFactor]
    /// An address change waiting for its owner's confirmation (`changeEmail`), or nil.
    public var pendingEmail: String?

    public init(
        uid: String, isAnonymous: Bool, email: String? = nil, emailVerified: Bool = false,
        displayName: String? = nil, username: String? = nil, providers: [String] = [],
        createdAt: Date? = nil, lastSignInAt: Date? = nil, factors: [SesameSecondFactor] = [],
        pendingEmail: String? = nil
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

    /// The protocol `User` object.
    public var json: JSONValue {
        .object([
            "uid": .string(uid), "isAnonymous": .bool(isAnonymous), "email": .optional(email),
            "emailVerified": .bool(emailVerified), "displayName": .optional(displayName),
            "username": .optional(username), "providers": .array(providers.map { .string($0) }),
            "createdAt": WireTime.json(createdAt), "lastSignInAt": WireTime.json(lastSignInAt),
            "factors": .array(factors.map(\.json)), "pendingEmail": .optional(pendingEmail),
        ])
    }

    /// Reads a protocol `User` object; nil without a `uid`.
    public init?(json: JSONValue) {
        guard let uid = json["uid"]?.stringValue else { return nil }
        self.uid = uid
        self.isAnonymous = json["isAnonymous"]?.boolValue ?? false
        self.email = json["email"]?.stringValue
        self.emailVerified = json["emailVerified"]?.boolValue ?? false
        self.displayName = json["displayName"]?.stringValue
        self.username = json["username"]?.stringValue
        self.providers = json["providers"]?.arrayValue?.compactMap(\.stringValue) ?? []
        self.createdAt = json["createdAt"]?.stringValue.flatMap(WireTime.parse)
        self.lastSignInAt = json["lastSignInAt"]?.stringValue.flatMap(WireTime.parse)
        self.factors = json["factors"]?.arrayValue?.compactMap { SesameSecondFactor(json: $0) } ?? []
        self.pendingEmail = json["pendingEmail"]?.stringValue
    }
}

/// The server side's name for ``SesameUser``.
public typealias WireUser = SesameUser
