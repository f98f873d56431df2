import Foundation
import SesameCore

extension GoTrueUser {
    /// The domain's view: provider ids in Firebase's names, from the identities (else
    /// `app_metadata.providers`), none for an anonymous user.
    var user: User {
        let anonymous = isAnonymous ?? false
        var providers: [String] = []
        if !anonymous {
            let names = identities.map { $0.map(\.provider) } ?? appMetadata?.providers ?? []
            for name in names.map(SupabaseProviderIds.firebaseName)
            where name != "anonymous" && !providers.contains(name) {
                providers.append(name)
            }
        }
        return User(
            uid: id, isAnonymous: anonymous, email: email.flatMap { $0.isEmpty ? nil : $0 },
            emailVerified: emailConfirmedAt.map { !$0.isEmpty } ?? false,
            displayName: userMetadata?.displayName, providers: providers,
            createdAt: createdAt.flatMap(GoTrueTime.parse), lastSignInAt: lastSignInAt.flatMap(GoTrueTime.parse)
        )
    }
}

/// GoTrue's timestamps: RFC 3339 with up to nanosecond fractions (`2026-11-21T10:00:00.123456Z`)
/// or an offset (`+00:00`).
enum GoTrueTime {
    static func parse(_ text: String) -> Date? {
        var text = Substring(text)
        var fraction = 0.0
        if let dot = text.firstIndex(of: ".") {
            let digitsEnd = text[text.index(after: dot)...].firstIndex { !$0.isNumber } ?? text.endIndex
            fraction = Double("0" + text[dot..<digitsEnd]) ?? 0
            text = text[..<dot] + text[digitsEnd...]
        }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: String(text))?.addingTimeInterval(fraction)
    }
}
