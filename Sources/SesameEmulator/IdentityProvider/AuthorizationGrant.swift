/// One authorization code of the browser flow (RFC 6749 §4.1), with its PKCE challenge.
struct AuthorizationGrant: Sendable {
    var providerId: String
    var identity: FakeIdentity
    var clientId: String?
    var redirectUri: String
    var scope: String?
    var nonce: String?
    /// RFC 7636 `code_challenge` and its method (`S256` or `plain`), when the request had one.
    var codeChallenge: String?
    var codeChallengeMethod: String?
    /// Milliseconds since 1970.
    var expiresAt: Int
}
