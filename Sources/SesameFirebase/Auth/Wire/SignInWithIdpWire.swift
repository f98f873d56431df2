/// `accounts:signInWithIdp` (docs/firebase.md, "Endpoints").
struct SignInWithIdpRequest: Encodable, Sendable {
    var requestUri: String
    /// Form-encoded `providerId=…&id_token=…&access_token=…`.
    var postBody: String
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
}
