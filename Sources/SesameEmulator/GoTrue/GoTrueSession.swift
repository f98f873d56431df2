import SesameCore
import SesameLocalAPI

/// One row of `auth.sessions` plus its authentication methods (`amr`).
struct GoTrueSession: Sendable, Codable {
    /// One authentication method and when it was used (unix seconds).
    struct Method: Sendable, Codable {
        var method: String
        var at: Int
    }

    var id: String
    var userId: String
    /// Oldest first.
    var amr: [Method]
    var createdAt: Int
    var refreshedAt: Int?
    /// The factor whose verification raised the session to `aal2` (GoTrue's `sessions.factor_id`).
    var factorId: String? = nil

    /// The methods that count as a second factor (GoTrue's `IsAAL2Claim`).
    static let secondFactorMethods: Set<String> = ["totp", "mfa/phone", "mfa/webauthn"]

    /// `aal2` once a second factor was verified in this session, else `aal1` (GoTrue's `CalculateAALAndAMR`).
    var aal: String { amr.contains { Self.secondFactorMethods.contains($0.method) } ? "aal2" : "aal1" }

    var isAAL2: Bool { aal == "aal2" }

    /// Records `method` at `at` (seconds); an existing entry of the method is moved to `at`.
    mutating func addMethod(_ method: String, at: Int) {
        amr.removeAll { $0.method == method }
        amr.append(Method(method: method, at: at))
    }

    /// Most recent first, as GoTrue sorts them.
    var amrClaim: JSONValue {
        .array(
            amr.enumerated().sorted { ($0.element.at, $0.offset) > ($1.element.at, $1.offset) }
                .map { ["method": .string($0.element.method), "timestamp": .int($0.element.at)] })
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
