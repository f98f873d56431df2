import Foundation
import SesameCore
import SesameLocalAPI

/// One account as the Auth emulator keeps it. Times are milliseconds since 1970 unless noted.
///
/// Invariants kept by ``AccountStore``: `localId` is unique; `email` is stored lower-cased;
/// `federatedProviders` never holds `password` or `phone` entries (those are derived).
struct UserRecord: Sendable, Equatable {
    var localId: String
    var email: String?
    var emailVerified: Bool?
    var displayName: String?
    var photoUrl: String?
    var phoneNumber: String?
    /// The password in clear (the emulator reveals it in `passwordHash`, as Google's does).
    var password: String? {
        didSet {
            importedPasswordHash = nil
            importedHashParameters = nil
        }
    }
    /// A hash imported by `accounts:batchCreate` that is not the emulator's own `fakeHash:` form
    /// (a real algorithm's hash): kept and shown, never matched, as Google's emulator does.
    var importedPasswordHash: String?
    /// The algorithm `accounts:batchCreate` named for ``importedPasswordHash``, when the emulator
    /// computes it (the password then signs in).
    var importedHashParameters: ImportedPasswordHash?
    var salt: String?
    var passwordUpdatedAt: Int?
    /// Seconds since 1970; ID tokens issued earlier are revoked.
    var validSince: Int?
    var createdAt: Int
    var lastLoginAt: Int?
    var lastRefreshAt: Int?
    var emailLinkSignin: Bool = false
    var initialEmail: String?
    var disabled: Bool = false
    var customAttributes: String?
    var customAuth: Bool = false
    var federatedProviders: [ProviderUserInfo] = []
    /// Enrolled TOTP second factors (`mfaInfo`).
    var mfaInfo: [MfaEnrollmentRecord] = []
    /// When an email change was applied from its link, or a password reset from its code
    /// (milliseconds since 1970): refresh tokens issued earlier are refused, as Identity
    /// Platform does. Kept in memory only.
    var sessionsRevokedAt: Int?

    /// Every provider entry: `password` (when the account has a password or used an email
    /// link), the federated ones, and `phone`.
    var providerUserInfo: [ProviderUserInfo] {
        var entries: [ProviderUserInfo] = []
        if let email, hasPassword || emailLinkSignin {
            entries.append(
                ProviderUserInfo(
                    providerId: "password", rawId: email, federatedId: email, email: email,
                    displayName: displayName, photoUrl: photoUrl))
        }
        entries.append(contentsOf: federatedProviders)
        if let phoneNumber {
            entries.append(ProviderUserInfo(providerId: "phone", rawId: phoneNumber, phoneNumber: phoneNumber))
        }
        return entries
    }

    /// Whether a password (known, or an imported hash) is attached.
    var hasPassword: Bool { password != nil || importedPasswordHash != nil }

    /// Whether `password` is the one the imported hash was made from (``ImportedPasswordHash``).
    func importedHashMatches(_ password: String) -> Bool {
        guard let parameters = importedHashParameters, let text = importedPasswordHash,
            let hash = Base64URL.decode(text)
        else { return false }
        return parameters.matches(password: password, hash: hash, salt: salt.flatMap(Base64URL.decode) ?? [])
    }

    /// `passwordHash` as the emulator shows it.
    var passwordHash: String? {
        guard let password, let salt else { return importedPasswordHash }
        return "fakeHash:salt=\(salt):password=\(password)"
    }
}

extension UserRecord {
    init(localId: String, createdAt: Int) { self.init(localId: localId, createdAt: createdAt, lastLoginAt: createdAt) }

    /// Reads a record in the `accounts:lookup` form, as export files keep it (the password is
    /// recovered from the emulator's `fakeHash:salt=…:password=…` hash).
    init?(exportJSON j: JSONValue) {
        guard let localId = j["localId"]?.stringValue else { return nil }
        let text = { (key: String) in j[key]?.stringValue }
        self.init(
            localId: localId, email: text("email"), emailVerified: j["emailVerified"]?.boolValue,
            displayName: text("displayName"), photoUrl: text("photoUrl"), phoneNumber: text("phoneNumber"),
            salt: text("salt"), passwordUpdatedAt: j["passwordUpdatedAt"]?.intValue,
            validSince: j["validSince"]?.int64TextValue, createdAt: j["createdAt"]?.int64TextValue ?? 0,
            lastLoginAt: j["lastLoginAt"]?.int64TextValue, emailLinkSignin: j["emailLinkSignin"]?.boolValue ?? false,
            initialEmail: text("initialEmail"), disabled: j["disabled"]?.boolValue ?? false,
            customAttributes: text("customAttributes"), customAuth: j["customAuth"]?.boolValue ?? false,
            federatedProviders: (j["providerUserInfo"]?.arrayValue ?? []).compactMap(ProviderUserInfo.init(json:))
                .filter { $0.providerId != "password" && $0.providerId != "phone" },
            mfaInfo: (j["mfaInfo"]?.arrayValue ?? []).compactMap(MfaEnrollmentRecord.init(exportJSON:)))
        if let hash = text("passwordHash") {
            if let range = hash.range(of: ":password=") {
                password = String(hash[range.upperBound...])
            } else {
                importedPasswordHash = hash
                importedHashParameters = j["sesameImportedHashAlgorithm"].flatMap {
                    try? JSONDecoder().decode(ImportedPasswordHash.self, from: Data($0.serialized()))
                }
            }
        }
    }
}
