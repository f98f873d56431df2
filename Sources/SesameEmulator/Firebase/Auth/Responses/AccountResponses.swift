import SesameCore
import SesameLocalAPI

/// Typed answers of the account operations; `nil` properties are omitted from the JSON.

/// One account as `accounts:lookup`, `batchGet`, `query` and export files show it.
struct AccountInfo: Encodable, Sendable {
    var localId: String
    var createdAt: String
    var email: String?
    var emailVerified: Bool?
    var displayName: String?
    var photoUrl: String?
    var phoneNumber: String?
    var providerUserInfo: [ProviderUserInfo]?
    var passwordHash: String?
    var salt: String?
    var passwordUpdatedAt: Int?
    var validSince: String?
    var lastLoginAt: String?
    var lastRefreshAt: String?
    /// Present only when true, as Google's emulator does.
    var emailLinkSignin: Bool?
    var initialEmail: String?
    var disabled: Bool?
    var customAttributes: String?
    var customAuth: Bool?
    /// Enrolled second factors; omitted when none. Secrets only in the emulator's export files.
    var mfaInfo: [JSONValue]?
    /// The algorithm of an imported hash the emulator computes (export files only, so that an
    /// imported user still signs in after a restart).
    var sesameImportedHashAlgorithm: ImportedPasswordHash?
}

extension AccountInfo {
    /// With `revealingSecrets`, second factors carry their shared secret (export files only).
    init(_ user: UserRecord, revealingSecrets: Bool = false) {
        let providers = user.providerUserInfo
        self.init(
            localId: user.localId, createdAt: String(user.createdAt), email: user.email,
            emailVerified: user.emailVerified, displayName: user.displayName, photoUrl: user.photoUrl,
            phoneNumber: user.phoneNumber, providerUserInfo: providers.isEmpty ? nil : providers,
            passwordHash: user.passwordHash, salt: user.salt, passwordUpdatedAt: user.passwordUpdatedAt,
            validSince: user.validSince.map { String($0) }, lastLoginAt: user.lastLoginAt.map { String($0) },
            lastRefreshAt: user.lastRefreshAt.map { RFC3339.format(milliseconds: $0) },
            emailLinkSignin: user.emailLinkSignin ? true : nil, initialEmail: user.initialEmail,
            disabled: user.disabled ? true : nil, customAttributes: user.customAttributes,
            customAuth: user.customAuth ? true : nil,
            mfaInfo: user.mfaInfo.isEmpty ? nil : user.mfaInfo.map { $0.json(revealingSecret: revealingSecrets) },
            sesameImportedHashAlgorithm: revealingSecrets ? user.importedHashParameters : nil)
    }
}

/// `accounts:lookup`; `users` is omitted when nothing matches.
struct GetAccountInfoResponse: Encodable, Sendable {
    var kind = "identitytoolkit#GetAccountInfoResponse"
    var users: [AccountInfo]?
}

/// `accounts:batchGet`, and `auth_export/accounts.json`.
struct DownloadAccountResponse: Encodable, Sendable {
    var kind = "identitytoolkit#DownloadAccountResponse"
    var users: [AccountInfo]
    var nextPageToken: String?
}

/// `accounts:query`.
struct QueryAccountsResponse: Encodable, Sendable {
    /// An int64, sent as a string.
    var recordsCount: String
    var userInfo: [AccountInfo]?
}

/// `accounts:delete`.
struct DeleteAccountResponse: Encodable, Sendable {
    var kind = "identitytoolkit#DeleteAccountResponse"
}

/// `accounts:update` (setAccountInfo).
struct SetAccountInfoResponse: Encodable, Sendable {
    var kind = "identitytoolkit#SetAccountInfoResponse"
    var localId: String
    var email: String?
    var emailVerified: Bool?
    var displayName: String?
    var photoUrl: String?
    var passwordHash: String?
    /// The requested email, echoed (lower-cased) when the call set one.
    var newEmail: String?
    var providerUserInfo: [ProviderUserInfo]?
}
