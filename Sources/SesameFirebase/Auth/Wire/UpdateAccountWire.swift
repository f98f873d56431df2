/// `accounts:update` with the caller's ID token (docs/firebase.md, "Endpoints"): profile fields and unlinking.
struct UpdateAccountRequest: Encodable, Sendable {
    var idToken: String
    var displayName: String?
    var password: String?
    var deleteAttribute: [String]?
    var deleteProvider: [String]?
    var returnSecureToken = true
}

/// Tokens come back only when the backend moved `validSince` (never for profile-only changes).
struct UpdateAccountResponse: Decodable, Sendable {
    var localId: String?
    var idToken: String?
    var refreshToken: String?
    var expiresIn: LenientString?
}
