import SesameHTTP

/// A GoTrue user object (reference §A.5). Only the fields the daemon reads; everything is
/// optional but `id`, so a server that adds or drops fields does not break sign-in.
struct GoTrueUser: Decodable, Sendable {
    struct AppMetadata: Decodable, Sendable {
        var provider: String?
        var providers: [String]?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyCodingKey.self)
            provider = try? container.decodeIfPresent(String.self, forKey: AnyCodingKey("provider"))
            providers = try? container.decodeIfPresent([String].self, forKey: AnyCodingKey("providers"))
        }
    }

    /// `user_metadata`: free-form; only the display-name keys the SDKs set are read.
    struct UserMetadata: Decodable, Sendable {
        var displayName: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyCodingKey.self)
            displayName = ["display_name", "full_name", "name"].lazy
                .compactMap { (try? container.decodeIfPresent(String.self, forKey: AnyCodingKey($0))) ?? nil }
                .first { !$0.isEmpty }
        }
    }

    struct Identity: Decodable, Sendable {
        var identityId: String?
        var id: String?
        var provider: String

        enum CodingKeys: String, CodingKey {
            case identityId = "identity_id"
            case id
            case provider
        }
    }

    /// One entry of `factors` (GoTrue's `mfa_factors` row; verified or not).
    struct Factor: Decodable, Sendable {
        var id: String
        var factorType: String?
        var status: String?
        var friendlyName: String?
        var createdAt: String?

        var isVerified: Bool { status == "verified" }

        enum CodingKeys: String, CodingKey {
            case id, status
            case factorType = "factor_type"
            case friendlyName = "friendly_name"
            case createdAt = "created_at"
        }
    }

    var id: String
    var email: String?
    /// Absent when the user has none (GoTrue omits an empty list).
    var factors: [Factor]?
    var newEmail: String?
    var emailConfirmedAt: String?
    var isAnonymous: Bool?
    var appMetadata: AppMetadata?
    var userMetadata: UserMetadata?
    var identities: [Identity]?
    var createdAt: String?
    var lastSignInAt: String?

    enum CodingKeys: String, CodingKey {
        case id, email, identities, factors
        case newEmail = "new_email"
        case emailConfirmedAt = "email_confirmed_at"
        case isAnonymous = "is_anonymous"
        case appMetadata = "app_metadata"
        case userMetadata = "user_metadata"
        case createdAt = "created_at"
        case lastSignInAt = "last_sign_in_at"
    }
}
