import SesameHTTP

/// Reads claims from a JWT's payload without verifying it (the daemon trusts the backend that
/// just issued the token; verification is the business of whoever receives it).
enum JWTClaims {
    /// `firebase.sign_in_provider` of `jwt`, or `"unknown"` when the token cannot be decoded.
    static func signInProvider(of jwt: String) -> String {
        guard let provider = JWTPayload.claims(Claims.self, of: jwt)?.firebase?.signInProvider, !provider.isEmpty
        else { return "unknown" }
        return provider
    }

    /// The uid of `jwt` (`user_id`, else `sub`), or nil when the token cannot be decoded.
    static func userId(of jwt: String) -> String? {
        guard let claims = JWTPayload.claims(Claims.self, of: jwt) else { return nil }
        return [claims.userId, claims.subject].compactMap { $0 }.first { !$0.isEmpty }
    }

    /// `exp - iat` of `jwt` in seconds, or nil when the token carries no usable pair (the
    /// multi-factor answers give no `expiresIn`).
    static func lifetime(of jwt: String) -> Int? {
        guard let claims = JWTPayload.claims(Claims.self, of: jwt), let exp = claims.expiresAt,
            let iat = claims.issuedAt, exp > iat
        else { return nil }
        return exp - iat
    }

    /// The `email` claim of `jwt`, if any.
    static func email(of jwt: String) -> String? {
        JWTPayload.claims(Claims.self, of: jwt)?.email.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The claims the adapter reads; a field of another type counts as absent.
    struct Claims: Decodable {
        var firebase: Firebase?
        var userId: String?
        var subject: String?
        var email: String?
        var expiresAt: Int?
        var issuedAt: Int?

        struct Firebase: Decodable {
            var signInProvider: String?

            private enum CodingKeys: String, CodingKey { case signInProvider = "sign_in_provider" }

            init(from decoder: any Decoder) throws {
                signInProvider = try? decoder.container(keyedBy: CodingKeys.self)
                    .decodeIfPresent(String.self, forKey: .signInProvider)
            }
        }

        private enum CodingKeys: String, CodingKey {
            case firebase
            case userId = "user_id"
            case subject = "sub"
            case email
            case expiresAt = "exp"
            case issuedAt = "iat"
        }

        init(from decoder: any Decoder) throws {
            let container = try? decoder.container(keyedBy: CodingKeys.self)
            firebase = try? container?.decodeIfPresent(Firebase.self, forKey: .firebase)
            userId = try? container?.decodeIfPresent(String.self, forKey: .userId)
            subject = try? container?.decodeIfPresent(String.self, forKey: .subject)
            email = try? container?.decodeIfPresent(String.self, forKey: .email)
            expiresAt = try? container?.decodeIfPresent(Int.self, forKey: .expiresAt)
            issuedAt = try? container?.decodeIfPresent(Int.self, forKey: .issuedAt)
        }
    }
}
