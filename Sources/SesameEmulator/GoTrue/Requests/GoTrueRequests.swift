import SesameLocalAPI

/// A typed body of a GoTrue endpoint: GoTrue's snake_case field names in camel case (`refreshToken` for
/// `refresh_token`), matched by ``GoTrueRequestDecoding``. As in GoTrue (Go's `encoding/json`), unknown fields
/// are ignored, `null` counts as absent, and a field of the wrong type is a 400 `bad_json`.
protocol GoTrueBody: Decodable, Sendable {}

/// `POST /signup` (no email and no phone is an anonymous sign-up).
struct SignUpBody: GoTrueBody {
    var email: String?
    var phone: String?
    var password: String?
    var data: [String: JSONValue]?
}

/// `POST /token?grant_type=password`.
struct PasswordGrantBody: GoTrueBody {
    var email: String?
    var phone: String?
    var password: String?
}

/// `POST /token?grant_type=refresh_token`.
struct RefreshGrantBody: GoTrueBody {
    var refreshToken: String?
}

/// `POST /token?grant_type=id_token`: federated sign-in, or linking with `link_identity`.
struct IdTokenGrantBody: GoTrueBody {
    var provider: String?
    var idToken: String?
    var nonce: String?
    var linkIdentity: Bool?
    /// The deprecated alternative to `provider`: an allowed issuer with its client id.
    var clientId: String?
    var issuer: String?
}

/// `POST /token?grant_type=pkce`.
struct PKCEGrantBody: GoTrueBody {
    var authCode: String?
    var codeVerifier: String?
}

/// `POST /otp` (email only; a phone is refused).
struct OTPBody: GoTrueBody {
    var email: String?
    var phone: String?
    var createUser: Bool?
    var data: [String: JSONValue]?
    var emailRedirectTo: String?
}

/// `POST /recover`, and `POST /invite` (admin) with the new user's `data`.
struct RecoverBody: GoTrueBody {
    var email: String?
    var data: [String: JSONValue]?
}

/// `POST /verify`, and the query of `GET /verify`: a `token_hash`, or a `token` with its `email`.
struct VerifyBody: GoTrueBody {
    var type: String?
    var token: String?
    var tokenHash: String?
    var email: String?
    /// A phone OTP (`type` `sms` or `phone_change`): answered as GoTrue with no phone users.
    var phone: String?
}

/// `POST /resend`: a signup or email-change confirmation again; `sms` and `phone_change` are phone types.
struct ResendBody: GoTrueBody {
    var type: String?
    var email: String?
    var phone: String?
    var codeChallenge: String?
    var codeChallengeMethod: String?
}

/// `PUT /user`. `app_metadata` is only read to refuse it (admin only).
struct UserUpdateBody: GoTrueBody {
    var email: String?
    var password: String?
    /// The `GET /reauthenticate` code (secure password change).
    var nonce: String?
    var data: [String: JSONValue]?
    var appMetadata: [String: JSONValue]?
}

/// `POST /admin/users` and `PUT /admin/users/{id}`.
struct AdminUserBody: GoTrueBody {
    var email: String?
    /// Read only to word the refusal: the emulator has no phone users.
    var phone: String?
    var password: String?
    var emailConfirm: Bool?
    var userMetadata: [String: JSONValue]?
    /// Older clients send the user metadata as `data`.
    var data: [String: JSONValue]?
    var appMetadata: [String: JSONValue]?
    var banDuration: String?
}

/// `POST /admin/generate_link`.
struct GenerateLinkBody: GoTrueBody {
    var type: String?
    var email: String?
    var newEmail: String?
    var password: String?
    var redirectTo: String?
    var data: [String: JSONValue]?
}

/// `POST /factors`, and `PUT /admin/users/{id}/factors/{factor_id}` (its `friendly_name`).
struct EnrollFactorBody: GoTrueBody {
    var factorType: String?
    var friendlyName: String?
    var issuer: String?
    var phone: String?
}

/// `POST /factors/{id}/verify`.
struct VerifyFactorBody: GoTrueBody {
    var challengeId: String?
    var code: String?
}
