/// Bodies and answers of GoTrue's `/factors` endpoints and of the account-security calls.

/// `POST /factors`.
struct EnrollTOTPBody: Encodable, Sendable {
    var factorType = "totp"
    var friendlyName: String?
    enum CodingKeys: String, CodingKey {
        case factorType = "factor_type"
        case friendlyName = "friendly_name"
    }
}

/// `POST /factors` answer for TOTP.
struct EnrolledFactor: Decodable, Sendable {
    struct TOTP: Decodable, Sendable {
        var secret: String
        var uri: String
    }
    var id: String
    var totp: TOTP?
}

/// `POST /factors/{id}/challenge` answer.
struct FactorChallenge: Decodable, Sendable {
    var id: String
    /// Unix seconds.
    var expiresAt: Double?
    enum CodingKeys: String, CodingKey {
        case id
        case expiresAt = "expires_at"
    }
}

/// `POST /factors/{id}/verify`.
struct VerifyFactorBody: Encodable, Sendable {
    var challengeId: String
    var code: String
    enum CodingKeys: String, CodingKey {
        case challengeId = "challenge_id"
        case code
    }
}

/// `PUT /user {password, nonce?}`.
struct PasswordChangeBody: Encodable, Sendable {
    var password: String
    var nonce: String?
}
