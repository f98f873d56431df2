/// `accounts:signInWithEmailLink` (docs/firebase.md, "Endpoints"); answered with ``SignInResponse``.
struct SignInWithEmailLinkRequest: Encodable, Sendable {
    var email: String
    var oobCode: String
    var idToken: String?
    var returnSecureToken = true
}
