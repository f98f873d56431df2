import SesameLocalAPI

/// Typed bodies of the account-management operations (reference §4.6–§4.9, admin API).

/// `accounts:update` (setAccountInfo).
struct UpdateRequest: IdentityToolkitRequest {
    @Field var idToken: String?
    @Field var oobCode: String?
    @Field var localId: String?
    @Field var email: String?
    @Field var password: String?
    @Field var displayName: String?
    @Field var photoUrl: String?
    @Field var phoneNumber: String?
    @Field var deleteAttribute: [String]?
    @Field var deleteProvider: [String]?
    @Field var disableUser: Bool?
    @Field var emailVerified: Bool?
    @Field var customAttributes: String?
    @Field var validSince: Int?
    @Field var createdAt: Int?
    @Field var lastLoginAt: Int?
    var linkProviderUserInfo: [LinkedProvider]?
    @Field var provider: JSONValue?
    @Field var upgradeToFederatedLogin: JSONValue?
    @Field var returnSecureToken: Bool?

    /// One `linkProviderUserInfo` entry (privileged).
    struct LinkedProvider: Decodable, Sendable {
        @Field var providerId: String?
        @Field var rawId: String?
        @Field var federatedId: String?
        @Field var email: String?
        @Field var displayName: String?
        @Field var photoUrl: String?
        @Field var screenName: String?
    }
}

/// `accounts:lookup`: by `idToken`, or privileged by lists of identifiers.
struct LookupRequest: IdentityToolkitRequest {
    @Field var idToken: String?
    @Field var localId: [String]?
    @Field var email: [String]?
    @Field var phoneNumber: [String]?
    var federatedUserId: [FederatedUserId]?

    struct FederatedUserId: Decodable, Sendable {
        @Field var providerId: String?
        @Field var rawId: String?
    }
}

/// `accounts:delete`.
struct DeleteRequest: IdentityToolkitRequest {
    @Field var idToken: String?
    @Field var localId: String?
}

/// `accounts:batchDelete` (privileged).
struct BatchDeleteRequest: IdentityToolkitRequest {
    @Field var localIds: [String]?
    @Field var force: Bool?
}

/// `accounts:batchGet` (privileged GET; the fields come from the query string).
struct BatchGetRequest: IdentityToolkitRequest {
    @Field var maxResults: Int?
    @Field var nextPageToken: String?
}

/// `accounts:query` (privileged).
struct QueryRequest: IdentityToolkitRequest {
    var expression: [Expression]?
    @Field var offset: Int?
    @Field var limit: Int?
    @Field var returnUserInfo: Bool?

    struct Expression: Decodable, Sendable {
        @Field var email: String?
        @Field var userId: String?
        @Field var phoneNumber: String?
    }
}

/// `accounts:createAuthUri`.
struct CreateAuthUriRequest: IdentityToolkitRequest {
    @Field var identifier: String?
    @Field var continueUri: String?
    @Field var providerId: JSONValue?
    @Field var sessionId: String?
}

/// `PATCH /emulator/v1/projects/{p}/config`.
struct ConfigPatchRequest: Decodable, Sendable {
    var signIn: SignIn?
    var emailPrivacyConfig: EmailPrivacy?

    struct SignIn: Decodable, Sendable {
        var allowDuplicateEmails: Bool?
    }

    struct EmailPrivacy: Decodable, Sendable {
        var enableImprovedEmailPrivacy: Bool?
    }
}
