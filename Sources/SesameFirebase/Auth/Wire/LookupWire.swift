/// `accounts:lookup` with the caller's ID token (docs/firebase.md, "Endpoints").
struct LookupRequest: Encodable, Sendable {
    var idToken: String
}

struct LookupResponse: Decodable, Sendable {
    var users: [AccountInfo]?
}

/// One user record of a lookup answer (the fields the domain needs).
struct AccountInfo: Decodable, Sendable {
    struct ProviderUserInfo: Decodable, Sendable {
        var providerId: String
    }

    var localId: String
    var email: String?
    var emailVerified: Bool?
    var displayName: String?
    var providerUserInfo: [ProviderUserInfo]?
    var passwordHash: String?
    /// Whether the account signs in with custom tokens minted by the project's server.
    var customAuth: Bool?
    var createdAt: LenientString?
    var lastLoginAt: LenientString?
    /// Enrolled second factors (Identity Platform); absent when none.
    var mfaInfo: [MfaEnrollmentWire]?
}
