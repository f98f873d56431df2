/// `accounts:createAuthUri` (docs/firebase.md, "Endpoints").
struct CreateAuthUriRequest: Encodable, Sendable {
    var identifier: String
    var continueUri: String
}

/// `accounts:createAuthUri` for a browser sign-in with a provider: the provider's
/// authorization URL that comes back to `continueUri`.
struct CreateProviderAuthUriRequest: Encodable, Sendable {
    var providerId: String
    var continueUri: String
}

/// Only `kind` and `sessionId` come back under email-enumeration protection; `authUri` only
/// when a `providerId` was asked for.
struct CreateAuthUriResponse: Decodable, Sendable {
    var registered: Bool?
    var signinMethods: [String]?
    var authUri: String?
    var sessionId: String?
}
