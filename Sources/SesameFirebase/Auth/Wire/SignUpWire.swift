/// `accounts:signUp` (docs/firebase.md, "Endpoints"): anonymous (`{returnSecureToken}`), email/password, or
/// linking email/password to the account of `idToken`.
struct SignUpRequest: Encodable, Sendable {
    var email: String?
    var password: String?
    /// Sent when linking, so that the account keeps its display name.
    var displayName: String?
    var idToken: String?
    var returnSecureToken = true
}

/// The token-bearing answer shared by signUp, signInWithPassword and signInWithEmailLink.
struct SignInResponse: Decodable, Sendable {
    var localId: String
    var idToken: String
    var refreshToken: String
    var expiresIn: LenientString
    var isNewUser: Bool?
}
