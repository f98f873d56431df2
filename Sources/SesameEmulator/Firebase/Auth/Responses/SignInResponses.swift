import SesameLocalAPI

/// Typed answers of the sign-in operations; `nil` properties are omitted from the JSON.

/// The tokens a sign-in issues: an ID token, its refresh token, and the lifetime in seconds (a
/// string, as Identity Toolkit sends it).
struct IssuedTokens: Sendable {
    var idToken: String
    var refreshToken: String
    var expiresIn: String

    /// The same fields for answers still built as JSON objects (`signInWithIdp`).
    var fields: [String: JSONValue] {
        ["idToken": .string(idToken), "refreshToken": .string(refreshToken), "expiresIn": .string(expiresIn)]
    }
}

/// An answer that may carry freshly issued tokens.
protocol CarriesTokens {
    var idToken: String? { get set }
    var refreshToken: String? { get set }
    var expiresIn: String? { get set }
}

extension CarriesTokens {
    mutating func carry(_ tokens: IssuedTokens) {
        idToken = tokens.idToken
        refreshToken = tokens.refreshToken
        expiresIn = tokens.expiresIn
    }
}

/// `accounts:signUp` (and admin create).
struct SignUpResponse: Encodable, Sendable, CarriesTokens {
    var kind = "identitytoolkit#SignupNewUserResponse"
    var localId: String
    var email: String?
    var displayName: String?
    var idToken: String?
    var refreshToken: String?
    var expiresIn: String?
}

/// `accounts:signInWithPassword`.
struct SignInWithPasswordResponse: Encodable, Sendable, CarriesTokens {
    var kind = "identitytoolkit#VerifyPasswordResponse"
    var registered = true
    var localId: String
    var email: String
    var idToken: String?
    var refreshToken: String?
    var expiresIn: String?
    /// Instead of tokens, for an account with a second factor.
    var mfaPendingCredential: String?
    var mfaInfo: [JSONValue]?
}

/// `accounts:signInWithCustomToken`.
struct SignInWithCustomTokenResponse: Encodable, Sendable, CarriesTokens {
    var kind = "identitytoolkit#VerifyCustomTokenResponse"
    var isNewUser: Bool
    var idToken: String?
    var refreshToken: String?
    var expiresIn: String?
}

/// `accounts:signInWithEmailLink`.
struct SignInWithEmailLinkResponse: Encodable, Sendable, CarriesTokens {
    var kind = "identitytoolkit#EmailLinkSigninResponse"
    var email: String
    var localId: String
    var isNewUser: Bool
    var idToken: String?
    var refreshToken: String?
    var expiresIn: String?
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

    init(tokens: IssuedTokens, userId: String) {
        idToken = tokens.idToken
        accessToken = tokens.idToken
        expiresIn = tokens.expiresIn
        refreshToken = tokens.refreshToken
        self.userId = userId
    }
}
