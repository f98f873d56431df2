import Crypto
import Foundation
import SesameCore
import SesameLocalAPI

/// One row of `auth.users` with its identities, as GoTrue's `models.User` serializes it.
struct GoTrueUser: Sendable, Codable {
    var id: String
    var email: String?
    var password: StoredPassword?
    var emailConfirmedAt: Int?
    var invitedAt: Int?
    var confirmationSentAt: Int?
    var recoverySentAt: Int?
    /// A pending email change (`new_email`).
    var newEmail: String?
    var emailChangeSentAt: Int?
    var lastSignInAt: Int?
    var appMetadata: [String: JSONValue] = [:]
    var userMetadata: [String: JSONValue] = [:]
    var identities: [GoTrueIdentity] = []
    var createdAt: Int
    var updatedAt: Int
    var bannedUntil: Int?
    var isAnonymous: Bool
    /// Enrolled second factors (`auth.mfa_factors`), verified or not; nil when none ever were.
    var factors: [GoTrueFactor]?
    /// When `/reauthenticate` last mailed a nonce.
    var reauthenticationSentAt: Int?

    init(now: Int, email: String?, isAnonymous: Bool = false, metadata: [String: JSONValue]? = nil) {
        self.id = UUID().uuidString.lowercased()
        self.email = email
        self.isAnonymous = isAnonymous
        self.userMetadata = metadata ?? [:]
        self.createdAt = now
        self.updatedAt = now
    }

    func isBanned(at now: Int) -> Bool { bannedUntil.map { $0 > now } ?? false }

    /// Whether a verified factor is enrolled (GoTrue's `HasMFAEnabled`).
    var hasVerifiedFactor: Bool { factors?.contains { $0.isVerified } ?? false }

    /// Adds (or refreshes) the `email` identity for the current email address.
    mutating func ensureEmailIdentity(now: Int) {
        guard let email else { return }
        identities.removeAll { $0.provider == "email" }
        let data: [String: JSONValue] = [
            "sub": .string(id), "email": .string(email), "email_verified": .bool(emailConfirmedAt != nil),
            "phone_verified": false,
        ]
        identities.append(
            GoTrueIdentity(
                provider: "email", providerId: id, userId: id, email: email, data: data, createdAt: now, updatedAt: now,
                lastSignInAt: now))
        refreshProviders()
    }

    /// Recomputes `app_metadata.provider(s)` from the identities, as GoTrue does.
    mutating func refreshProviders() {
        let providers = identities.map(\.provider).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        guard !providers.isEmpty else { return }
        if appMetadata["provider"] == nil { appMetadata["provider"] = .string(providers[0]) }
        appMetadata["providers"] = .array(providers.map(JSONValue.string))
    }

    /// The user object of GoTrue's API.
    var json: JSONValue {
        var o: [String: JSONValue] = [
            "id": .string(id), "aud": "authenticated", "role": "authenticated",
            "email": .string(email ?? ""), "phone": "",
            "app_metadata": .object(appMetadata), "user_metadata": .object(userMetadata),
            "identities": .array(identities.map(\.json)), "is_anonymous": .bool(isAnonymous),
        ]
        let times: [String: Int?] = [
            "created_at": createdAt, "updated_at": updatedAt, "email_confirmed_at": emailConfirmedAt,
            "confirmed_at": emailConfirmedAt, "invited_at": invitedAt, "confirmation_sent_at": confirmationSentAt,
            "recovery_sent_at": recoverySentAt, "email_change_sent_at": emailChangeSentAt,
            "last_sign_in_at": lastSignInAt, "banned_until": bannedUntil,
            "reauthentication_sent_at": reauthenticationSentAt,
        ]
        for case (let key, let ms?) in times { o[key] = .string(RFC3339.format(milliseconds: ms)) }
        o["new_email"] = newEmail.map(JSONValue.string)
        if let factors, !factors.isEmpty { o["factors"] = .array(factors.map(\.json)) }
        return .object(o)
    }
}

/// One row of `auth.identities`.
struct GoTrueIdentity: Sendable, Codable {
    var identityId = UUID().uuidString.lowercased()
    var provider: String
    /// The provider's subject (the user id for `email`).
    var providerId: String
    var userId: String
    var email: String?
    var data: [String: JSONValue]
    var createdAt: Int
    var updatedAt: Int
    var lastSignInAt: Int

    var json: JSONValue {
        var o: [String: JSONValue] = [
            "identity_id": .string(identityId), "id": .string(providerId), "user_id": .string(userId),
            "identity_data": .object(data), "provider": .string(provider),
            "last_sign_in_at": .string(RFC3339.format(milliseconds: lastSignInAt)),
            "created_at": .string(RFC3339.format(milliseconds: createdAt)),
            "updated_at": .string(RFC3339.format(milliseconds: updatedAt)),
        ]
        o["email"] = email.map(JSONValue.string)
        return .object(o)
    }
}

extension GoTrueIdentity {
    /// A federated identity from its provider's claims: `sub`, `provider_id`, `email_verified`,
    /// and the `iss`, `name`, `picture` and `email` the provider gave.
    init(provider: String, sub: String, claims: [String: JSONValue], email: String?, verified: Bool, now: Int) {
        var data: [String: JSONValue] = [
            "sub": .string(sub), "provider_id": .string(sub), "email_verified": .bool(verified),
        ]
        for key in ["iss", "name", "picture", "email"] { data[key] = claims[key] }
        self.init(
            provider: provider, providerId: sub, userId: "", email: email, data: data, createdAt: now, updatedAt: now,
            lastSignInAt: now)
    }
}

/// A salted SHA-256 of a password (the emulator is not a password store; it only must not keep them in clear).
struct StoredPassword: Sendable, Codable {
    let salt: [UInt8]
    let digest: [UInt8]

    init(_ password: String) {
        var generator = SystemRandomNumberGenerator()
        salt = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        digest = Self.hash(password, salt: salt)
    }

    func matches(_ password: String) -> Bool { Self.hash(password, salt: salt) == digest }

    private static func hash(_ password: String, salt: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(data: salt + Array(password.utf8)))
    }
}
