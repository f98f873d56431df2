/// The claims of a GoTrue access token that the adapter reads. Lenient: a claim of another type
/// counts as absent, and a number may be an integer or not (GoTrue writes `amr` timestamps as
/// integers; other issuers do not).
struct AccessTokenClaims: Decodable {
    var subject: String?
    var isAnonymous: Bool?
    var appProvider: String?
    /// `aal1` or `aal2`: the session's authenticator assurance level.
    var aal: String?
    var amr: [Method] = []

    /// One `amr` entry: how and when the session was authenticated.
    struct Method: Decodable {
        var method: String?
        var provider: String?
        var timestamp: Double?

        private enum CodingKeys: String, CodingKey { case method, provider, timestamp }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            method = try? c.decodeIfPresent(String.self, forKey: .method)
            provider = try? c.decodeIfPresent(String.self, forKey: .provider)
            timestamp = try? c.decodeIfPresent(Double.self, forKey: .timestamp)
        }
    }

    private struct AppMetadata: Decodable {
        var provider: String?

        private enum CodingKeys: String, CodingKey { case provider }

        init(from decoder: any Decoder) throws {
            provider = try? decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(String.self, forKey: .provider)
        }
    }

    private enum CodingKeys: String, CodingKey {
        case subject = "sub", isAnonymous = "is_anonymous", appMetadata = "app_metadata", amr, aal
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        subject = try? c.decodeIfPresent(String.self, forKey: .subject)
        isAnonymous = try? c.decodeIfPresent(Bool.self, forKey: .isAnonymous)
        aal = try? c.decodeIfPresent(String.self, forKey: .aal)
        appProvider = (try? c.decodeIfPresent(AppMetadata.self, forKey: .appMetadata))?.provider
        // Entries that are not objects are skipped.
        amr = (try? c.decodeIfPresent([Lenient<Method>].self, forKey: .amr))?.compactMap(\.value) ?? []
    }

    /// A value that decodes to nil instead of failing.
    private struct Lenient<Value: Decodable>: Decodable {
        var value: Value?

        init(from decoder: any Decoder) throws {
            value = try? Value(from: decoder)
        }
    }
}
