import Crypto
import SesameLocalAPI

/// A person as the fake identity provider knows them: who approved a device code or an
/// authorization request, under one provider id.
struct FakeIdentity: Sendable, Equatable {
    var providerId: String
    /// The provider's stable account id: given by the approver, or derived from the email.
    var sub: String
    var email: String
    var name: String?

    /// An identity whose `sub`, when not given, is derived from the provider id and the
    /// lower-cased email, so the same email is the same account again.
    init(providerId: String, email: String, sub: String? = nil, name: String? = nil) {
        let lowered = email.lowercased()
        self.providerId = providerId
        self.email = lowered
        self.sub = sub.nonEmpty ?? Self.derivedSub(providerId: providerId, email: lowered)
        self.name = name.nonEmpty
    }

    /// A decimal number (as Google's and GitHub's account ids are) from SHA-256 of
    /// `providerId` and `email`.
    static func derivedSub(providerId: String, email: String) -> String {
        let digest = Array(SHA256.hash(data: Array("\(providerId)\n\(email)".utf8)))
        var value: UInt64 = 0
        for byte in digest.prefix(8) { value = value << 8 | UInt64(byte) }
        return String(value % 100_000_000_000_000_000 + 100_000_000_000_000_000)
    }

    /// The claims a relying party reads (what the ID token carries, and what an access token
    /// stands for): `sub`, `email`, `email_verified`, `name`, and for GitHub `screen_name`, the
    /// login GitHub would show (the email's local part).
    var claims: [String: JSONValue] {
        var claims: [String: JSONValue] = ["sub": .string(sub), "email": .string(email), "email_verified": true]
        claims["name"] = name.map(JSONValue.string)
        if providerId == "github.com" { claims["screen_name"] = .string(String(email.prefix { $0 != "@" })) }
        return claims
    }
}
