import SesameCore
import SesameLocalAPI

/// One row of `auth.sessions` plus its authentication methods (`amr`).
struct GoTrueSession: Sendable {
    var id: String
    var userId: String
    /// `(method, unix seconds)`, oldest first.
    var amr: [(method: String, at: Int)]
    var createdAt: Int
    var refreshedAt: Int?

    var amrClaim: JSONValue {
        .array(amr.reversed().map { ["method": .string($0.method), "timestamp": .int($0.at)] })
    }
}

/// The one-time codes GoTrue mails (confirmation, magic link, recovery, email change, invite).
struct OneTimeCode: Sendable, Codable {
    /// `signup`, `invite`, `magiclink`, `recovery`, `email_change` (to the new address),
    /// `email_change_current` (secure email change: to the current address).
    var type: String
    var userId: String
    /// The address the code was sent to (the new address for `email_change`).
    var email: String
    /// Six digits.
    var otp: String
    /// Hex SHA-224 of `email + otp`, GoTrue's `token_hash`.
    var hashedToken: String
    var sentAt: Int
    var redirectTo: String?
}

/// An email the emulator "sent", listed by `GET /sesame/v1/supabase/messages`.
struct SupabaseMessage: Sendable, Codable {
    var type: String
    var email: String
    var otp: String
    var hashedToken: String
    var link: String
    var sentAt: Int

    var json: JSONValue {
        [
            "type": .string(type), "email": .string(email), "otp": .string(otp), "hashed_token": .string(hashedToken),
            "link": .string(link), "sent_at": .string(RFC3339.format(milliseconds: sentAt)),
        ]
    }
}
