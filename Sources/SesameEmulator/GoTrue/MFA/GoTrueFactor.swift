import Foundation
import SesameCore
import SesameLocalAPI

/// One row of `auth.mfa_factors`: a TOTP authenticator the user enrolled (GoTrue `models.Factor`).
/// Only TOTP is served; the secret is kept in base32 and never rendered after enrolment.
struct GoTrueFactor: Sendable, Codable {
    static let verified = "verified"

    var id = UUID().uuidString.lowercased()
    var friendlyName: String
    var factorType = "totp"
    /// `unverified` until a challenge of it is verified, then `verified`.
    var status = "unverified"
    /// The shared secret, base32 without padding.
    var secret: String
    var createdAt: Int
    var updatedAt: Int
    var lastChallengedAt: Int?

    var isVerified: Bool { status == Self.verified }

    /// GoTrue's factor JSON (the `factors` entries of the user object). `friendly_name` is
    /// omitted when empty, as GoTrue's `omitempty` does; the secret never appears.
    var json: JSONValue {
        var o: [String: JSONValue] = [
            "id": .string(id), "factor_type": .string(factorType), "status": .string(status),
            "created_at": .string(RFC3339.format(milliseconds: createdAt)),
            "updated_at": .string(RFC3339.format(milliseconds: updatedAt)),
            "last_challenged_at": lastChallengedAt.map { JSONValue.string(RFC3339.format(milliseconds: $0)) } ?? .null,
        ]
        if !friendlyName.isEmpty { o["friendly_name"] = .string(friendlyName) }
        return .object(o)
    }
}

/// One row of `auth.mfa_challenges`: made by `POST /factors/{id}/challenge`, spent by a successful verify.
struct MFAChallenge: Sendable, Codable {
    var id: String
    var factorId: String
    var createdAt: Int
    var verifiedAt: Int?
}
