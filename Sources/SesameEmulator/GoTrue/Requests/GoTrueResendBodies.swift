import SesameLocalAPI

/// `POST /resend`: mails a signup or email-change confirmation again; `sms` and `phone_change`
/// are phone types.
struct ResendBody: Decodable, Sendable {
    var type: String?
    var email: String?
    var phone: String?
    var codeChallenge: String?
    var codeChallengeMethod: String?

    enum CodingKeys: String, CodingKey {
        case type, email, phone
        case codeChallenge = "code_challenge"
        case codeChallengeMethod = "code_challenge_method"
    }
}

/// `POST /invite` (admin).
struct InviteBody: Decodable, Sendable {
    var email: String?
    var data: [String: JSONValue]?
}
