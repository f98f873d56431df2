/// `accounts:createAuthUri` (docs/firebase.md, "Endpoints").
struct CreateAuthUriRequest: Encodable, Sendable {
    var identifier: String
    var continueUri: String
}

/// Only `kind` and `sessionId` come back under email-enumeration protection.
struct CreateAuthUriResponse: Decodable, Sendable {
    var registered: Bool?
    var signinMethods: [String]?
}
