import SesameLocalAPI

/// Typed answers of the sign-in operations; `nil` properties are omitted from the JSON.

/// The tokens a sign-in issues: an ID token, its refresh token, and the lifetime in seconds (a
/// string, as Identity Toolkit sends it).
struct IssuedTokens: Encodable, Sendable {
    var idToken: String
    var refreshToken: String
    var expiresIn: String

    /// The same fields for answers still built as JSON objects (`signInWithIdp`).
    var fields: [String: JSONValue] {
        ["idToken": .string(idToken), "refreshToken": .string(refreshToken), "expiresIn": .string(expiresIn)]
    }
}

/// An answer with the tokens the call issued, if any, as members of the same JSON object.
struct WithTokens<Answer: Encodable & Sendable>: Encodable, Sendable {
    var answer: Answer
    var tokens: IssuedTokens?

    func encode(to encoder: any Encoder) throws {
        try answer.encode(to: encoder)
        try tokens?.encode(to: encoder)
    }
}

/// `accounts:signUp` (and admin create).
struct SignUpResponse: Encodable, Sendable {
    var kind = "identitytoolkit#SignupNewUserResponse"
    var localId: String
    var email: String?
    var displayName: String?
}

/// `accounts:signInWithPassword`.
struct SignInWithPasswordResponse: Encodable, Sendable {
    var kind = "identitytoolkit#VerifyPasswordResponse"
    var registered = true
    var localId: String
    var email: String
    /// Instead of tokens, for an account with a second factor.
    var mfaPendingCredential: String?
    var mfaInfo: [JSONValue]?
}

/// `accounts:signInWithCustomToken`.
struct SignInWithCustomTokenResponse: Encodable, Sendable {
    var kind = "identitytoolkit#VerifyCustomTokenResponse"
    var isNewUser: Bool
}

/// `accounts:signInWithEmailLink`.
struct SignInWithEmailLinkResponse: Encodable, Sendable {
    var kind = "identitytoolkit#EmailLinkSigninResponse"
    var email: String
    var localId: String
    var isNewUser: Bool
    /// Instead of tokens, for an account with a second factor.
    var mfaPendingCredential: String?
    var mfaInfo: [JSONValue]?
}

/// `securetoken.googleapis.com/v1/token`, in snake_case.
struct TokenGrantResponse: Encodable, Sendable {
    var idToken: String
    var accessToken: String
    var expiresIn: String
    var refreshToken: String
    var tokenType = "Bearer"
    var userId: String
    var projectId = "12345"

    enum CodingKeys: String, CodingKey {
        case idToken = "id_token", accessToken = "access_token", expiresIn = "expires_in"
        case refreshToken = "refresh_token", tokenType = "token_type", userId = "user_id", projectId = "project_id"
    }
}
