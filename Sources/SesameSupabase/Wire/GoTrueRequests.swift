import SesameHTTP

/// Request bodies of the GoTrue endpoints the adapter calls (reference §A.2).
struct EmptyBody: Encodable, Sendable {}

struct EmailPasswordBody: Encodable, Sendable {
    var email: String
    var password: String
}

struct RefreshBody: Encodable, Sendable {
    var refreshToken: String
    enum CodingKeys: String, CodingKey { case refreshToken = "refresh_token" }
}

struct OTPBody: Encodable, Sendable {
    var email: String
    var createUser = true
    enum CodingKeys: String, CodingKey {
        case email
        case createUser = "create_user"
    }
}

/// `/verify` with the code from the email, or with the hashed token of its link.
struct VerifyBody: Encodable, Sendable {
    var type: String
    var email: String?
    var token: String?
    var tokenHash: String?
    enum CodingKeys: String, CodingKey {
        case type, email, token
        case tokenHash = "token_hash"
    }
}

struct IDTokenGrantBody: Encodable, Sendable {
    var provider: String
    var idToken: String
    var accessToken: String?
    var linkIdentity: Bool?
    enum CodingKeys: String, CodingKey {
        case provider
        case idToken = "id_token"
        case accessToken = "access_token"
        case linkIdentity = "link_identity"
    }
}

struct EmailBody: Encodable, Sendable {
    var email: String
}

struct ResendBody: Encodable, Sendable {
    var type: String
    var email: String
}

/// `PUT /user {"data":{"display_name":…}}`; a nil name is sent as JSON null (removes it).
struct DisplayNameBody: Encodable, Sendable {
    var displayName: String?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        var data = container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: AnyCodingKey("data"))
        if let displayName {
            try data.encode(displayName, forKey: AnyCodingKey("display_name"))
        } else {
            try data.encodeNil(forKey: AnyCodingKey("display_name"))
        }
    }
}

/// `POST /token?grant_type=pkce`: the code the browser came back with, and the verifier.
struct PKCEGrantBody: Encodable, Sendable {
    var authCode: String
    var codeVerifier: String
    enum CodingKeys: String, CodingKey {
        case authCode = "auth_code"
        case codeVerifier = "code_verifier"
    }
}
