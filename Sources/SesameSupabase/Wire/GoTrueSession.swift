/// A GoTrue session answer (`/signup`, `/token`, `/verify`): snake_case, reference §A.5.
/// `/signup` with confirmations on answers a bare user instead, so the tokens are optional.
struct GoTrueSession: Decodable, Sendable {
    var accessToken: String?
    var refreshToken: String?
    var expiresIn: Double?
    var user: GoTrueUser?
    /// The bare-user form: the user's own fields at the top level.
    var id: String?

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case expiresIn = "expires_in"
        case user
        case id
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decodeIfPresent(String.self, forKey: .accessToken)
        refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken)
        if let seconds = try? container.decodeIfPresent(Double.self, forKey: .expiresIn) {
            expiresIn = seconds
        } else {
            expiresIn = (try? container.decodeIfPresent(String.self, forKey: .expiresIn)).flatMap { Double($0) }
        }
        user = try container.decodeIfPresent(GoTrueUser.self, forKey: .user)
        id = try container.decodeIfPresent(String.self, forKey: .id)
    }

    /// Whether the answer carries tokens (else the account awaits an email confirmation).
    var hasTokens: Bool { accessToken?.isEmpty == false && refreshToken?.isEmpty == false }
}
