/// `accounts:signInWithCustomToken` (reference firebase-rest.md §4.11).
struct SignInWithCustomTokenRequest: Encodable, Sendable {
    var token: String
    var returnSecureToken = true
}

/// Its answer carries no `localId` in production: the uid is read from the ID token.
struct SignInWithCustomTokenResponse: Decodable, Sendable {
    var localId: String?
    var idToken: String
    var refreshToken: String
    var expiresIn: LenientString
    var isNewUser: Bool?
}
