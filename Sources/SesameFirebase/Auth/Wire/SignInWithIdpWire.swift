/// `accounts:signInWithIdp` (docs/firebase.md, "Endpoints").
struct SignInWithIdpRequest: Encodable, Sendable {
    /// `http://localhost` with a `postBody`; the browser's callback URL with a `sessionId`.
    var requestUri: String
    /// Form-encoded `providerId=…&id_token=…&access_token=…`; nil for a browser sign-in.
    var postBody: String?
    /// The `sessionId` of the browser sign-in's `createAuthUri`.
    var sessionId: String? = nil
    var idToken: String?
    var returnIdpCredential = true
    var returnSecureToken = true
}

/// The answer of signInWithIdp. Every field is optional because a 200 may carry
/// `needConfirmation` or `errorMessage` instead of tokens.
struct SignInWithIdpResponse: Decodable, Sendable {
    var localId: String?
    var idToken: String?
    var refreshToken: String?
    var expiresIn: LenientString?
    var isNewUser: Bool?
    var needConfirmation: Bool?
    var errorMessage: String?
    var email: String?
    var providerId: String?
    var verifiedProvider: [String]?
    /// The provider's tokens (`returnIdpCredential`), which sign in to the account that owns
    /// the identity when linking found it taken.
    var oauthIdToken: String?
    var oauthAccessToken: String?
}
