/// `accounts:signInWithPassword` (reference §4.2); answered with ``SignInResponse``.
struct SignInWithPasswordRequest: Encodable, Sendable {
    var email: String
    var password: String
    var returnSecureToken = true
}
