import SesameHTTP

/// Reads a GoTrue access token's claims without verifying it (the daemon trusts the backend
/// that just issued the token; verifying is the business of whoever receives it).
enum SupabaseClaims {
    /// AMR methods that prove an email address: the account signs in "by email" (Firebase's
    /// `password` provider covers email links too).
    static let emailMethods: Set<String> = [
        "password", "otp", "magiclink", "email", "email/signup", "email_signup", "email_change", "invite", "recovery",
    ]

    /// The sign-in provider of `jwt` in Firebase's names: `anonymous` when `is_anonymous` is
    /// true; else the newest `amr` entry (ignoring `token_refresh`): email methods →
    /// `password`, OAuth and ID-token methods → the provider (`app_metadata.provider`, mapped);
    /// else `app_metadata.provider`, mapped; `unknown` when the token cannot be read.
    static func signInProvider(of jwt: String) -> String {
        guard let claims = JWTPayload.claims(AccessTokenClaims.self, of: jwt) else { return "unknown" }
        if claims.isAnonymous == true { return "anonymous" }
        let appProvider = claims.appProvider.flatMap { $0.isEmpty ? nil : $0 }
        let entries = claims.amr.filter { $0.method.map { $0 != "token_refresh" } ?? false }
        let newest = entries.enumerated().max { left, right in
            let l = left.element.timestamp ?? 0
            let r = right.element.timestamp ?? 0
            return l == r ? left.offset < right.offset : l < r
        }?.element
        if let method = newest?.method {
            if method == "anonymous" { return "anonymous" }
            if emailMethods.contains(method) { return "password" }
            if let provider = newest?.provider ?? appProvider, !provider.isEmpty {
                return SupabaseProviderIds.firebaseName(provider)
            }
        }
        return appProvider.map(SupabaseProviderIds.firebaseName) ?? "unknown"
    }

    /// The `aal` claim (`aal1`, `aal2`), nil when absent or unreadable.
    static func assuranceLevel(of jwt: String) -> String? {
        JWTPayload.claims(AccessTokenClaims.self, of: jwt)?.aal
    }

    /// The `sub` claim.
    static func subject(of jwt: String) -> String? {
        JWTPayload.claims(AccessTokenClaims.self, of: jwt)?.subject
    }
}
