/// `accounts:delete` with the caller's ID token (reference §4.8).
struct DeleteAccountRequest: Encodable, Sendable {
    var idToken: String
}
