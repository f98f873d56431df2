/// `accounts:signInWithPassword` (docs/firebase.md, "Endpoints"); answered with ``SignInResponse``.
struct SignInWithPasswordRequest: Encodable, Sendable {
    var email: String
    var password: String
    var returnSecureToken = true
}
