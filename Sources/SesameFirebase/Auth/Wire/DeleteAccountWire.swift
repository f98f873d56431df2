/// `accounts:delete` with the caller's ID token (docs/firebase.md, "Endpoints").
struct DeleteAccountRequest: Encodable, Sendable {
    var idToken: String
}
