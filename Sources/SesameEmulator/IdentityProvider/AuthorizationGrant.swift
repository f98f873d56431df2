/// One authorization code of the browser flow (RFC 6749 §4.1): the request it answers (with
/// its PKCE challenge) and who approved it.
struct AuthorizationGrant: Sendable {
    var providerId: String
    var identity: FakeIdentity
    var request: FakeIdentityProvider.AuthorizationRequest
    /// Milliseconds since 1970.
    var expiresAt: Int
}
