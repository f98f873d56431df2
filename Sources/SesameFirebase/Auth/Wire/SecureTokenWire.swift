import SesameHTTP

/// Secure Token's answer to `grant_type=refresh_token` (docs/firebase.md, "Endpoints"): snake_case.
struct SecureTokenResponse: Decodable, Sendable {
    var idToken: String
    var refreshToken: String
    var expiresIn: LenientString
    var userId: String

    enum CodingKeys: String, CodingKey {
        case idToken = "id_token"
        case refreshToken = "refresh_token"
        case expiresIn = "expires_in"
        case userId = "user_id"
    }
}

/// An answer whose content is not needed; decoding only checks it is a JSON object.
struct EmptyResponse: Decodable, Sendable {
    init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: AnyCodingKey.self)
    }
}
