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
            createdAt: createdAt.flatMap(RFC3339.parse), lastSignInAt: lastSignInAt.flatMap(RFC3339.parse),
            factors: verifiedFactors, pendingEmail: newEmail.flatMap { $0.isEmpty ? nil : $0 }
        )
    }

    /// The verified factors (an unverified one is an enrolment not finished), in the domain's terms.
    var verifiedFactors: [SecondFactor] {
        (factors ?? []).filter(\.isVerified).map {
            SecondFactor(
                factorId: $0.id, type: $0.factorType ?? "totp",
                displayName: $0.friendlyName.flatMap { $0.isEmpty ? nil : $0 },
                enrolledAt: $0.createdAt.flatMap(RFC3339.parse))
        }
    }
}
