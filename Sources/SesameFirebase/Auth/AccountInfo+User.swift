import Foundation
import SesameCore

extension AccountInfo {
    /// The domain profile of this record (docs/firebase.md, "Endpoints").
    ///
    /// Providers come from `providerUserInfo` in order, without duplicates. A user is
    /// anonymous when it has no provider, is not an email/password account (no email, or an
    /// email without a password, which is what an anonymous user given only an email is) — the
    /// rule of Firebase's JS SDK — and is not a custom-token account (`customAuth`, which the
    /// JS SDK would call anonymous: an enrolled fleet machine is no guest to merge away). Empty
    /// strings count as absent; dates are milliseconds.
    var user: User {
        var providers: [String] = []
        for info in providerUserInfo ?? [] where !info.providerId.isEmpty && !providers.contains(info.providerId) {
            providers.append(info.providerId)
        }
        let email = email.flatMap { $0.isEmpty ? nil : $0 }
        let hasPassword = !(passwordHash ?? "").isEmpty
        return User(
            uid: localId,
            isAnonymous: providers.isEmpty && !(email != nil && hasPassword) && customAuth != true,
            email: email,
            emailVerified: emailVerified ?? false,
            displayName: displayName.flatMap { $0.isEmpty ? nil : $0 },
            username: nil,
            providers: providers,
            createdAt: Self.date(fromMilliseconds: createdAt),
            lastSignInAt: Self.date(fromMilliseconds: lastLoginAt),
            factors: (mfaInfo ?? []).compactMap(\.factor)
        )
    }

    static func date(fromMilliseconds value: LenientString?) -> Date? {
        guard let value, let milliseconds = Double(value.value) else { return nil }
        return Date(timeIntervalSince1970: milliseconds / 1000)
    }
}
