import SesameHTTP

/// An answer of a device authorization or token endpoint (RFC 8628 §3.2 and §3.5, RFC 6749
/// §5.1–5.2), whichever it is: every field optional, numbers also as strings. An `error` makes
/// it a refusal, whatever the HTTP status (GitHub answers its errors with 200).
///
/// Holds the device code and the provider's tokens: never logged.
struct OAuthAnswer: Decodable, Sendable {
    var error: String?
    var deviceCode: String?
    var userCode: String?
    var verificationUri: String?
    var verificationUriComplete: String?
    var expiresIn: Double?
    var interval: Double?
    var accessToken: String?
    var idToken: String?

    private enum CodingKeys: String, CodingKey {
        case error, interval
        case deviceCode = "device_code"
        case userCode = "user_code"
        case verificationUri = "verification_uri"
        /// Google's name for `verification_uri`.
        case verificationUrl = "verification_url"
        case verificationUriComplete = "verification_uri_complete"
        case expiresIn = "expires_in"
        case accessToken = "access_token"
        case idToken = "id_token"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func text(_ key: CodingKeys) -> String? {
            (try? container.decodeIfPresent(String.self, forKey: key)).flatMap { $0?.isEmpty == false ? $0 : nil }
        }
        func number(_ key: CodingKeys) -> Double? {
            if let value = try? container.decodeIfPresent(Double.self, forKey: key) { return value }
            return text(key).flatMap { Double($0) }
        }
        error = text(.error)
        deviceCode = text(.deviceCode)
        userCode = text(.userCode)
        verificationUri = text(.verificationUri) ?? text(.verificationUrl)
        verificationUriComplete = text(.verificationUriComplete)
        expiresIn = number(.expiresIn)
        interval = number(.interval)
        accessToken = text(.accessToken)
        idToken = text(.idToken)
    }
}

/// The error body of an OAuth endpoint (RFC 6749 §5.2): only `error` is read, never
/// `error_description` (free text that may echo input).
struct OAuthErrorBody: Decodable, Sendable {
    var error: String?

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        error = (try? container.decodeIfPresent(String.self, forKey: AnyCodingKey("error"))).flatMap {
            $0?.isEmpty == false ? $0 : nil
        }
    }
}
