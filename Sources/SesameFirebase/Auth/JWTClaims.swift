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

    /// The claims the adapter reads; a field of another type counts as absent.
    struct Claims: Decodable {
        var firebase: Firebase?

        struct Firebase: Decodable {
            var signInProvider: String?

            private enum CodingKeys: String, CodingKey { case signInProvider = "sign_in_provider" }

            init(from decoder: any Decoder) throws {
                signInProvider = try? decoder.container(keyedBy: CodingKeys.self)
                    .decodeIfPresent(String.self, forKey: .signInProvider)
            }
        }

        private enum CodingKeys: String, CodingKey { case firebase }

        init(from decoder: any Decoder) throws {
            firebase = try? decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(
                Firebase.self, forKey: .firebase)
        }
    }
}
