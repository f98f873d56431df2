import Foundation
import NIOHTTP1
import SesameCore
import SesameHTTP

extension SupabaseAuthProvider {
    /// The providers (Supabase's names) whose ID tokens GoTrue's `id_token` grant takes; any
    /// `custom:<id>` provider too.
    static let idTokenGrantProviders: Set<String> = [
        "google", "apple", "azure", "facebook", "keycloak", "kakao", "snapchat", "vercel_marketplace",
    ]

    /// GoTrue signs in with a provider's ID token only (the `id_token` grant), and only for the
    /// providers it knows: a device flow with any other provider, or with one that yields no
    /// ID token (GitHub), is `.unsupported`, pointing at the browser flow.
    public func checkFederatedSignIn(providerId: String, yieldsIDToken: Bool) throws(RemoteAuthError) {
        let name = SupabaseProviderIds.supabaseName(providerId)
        let browser = "sesamectl sign-in \(Self.commandName(providerId)) --browser"
        guard yieldsIDToken else {
            throw .unsupported(
                "Supabase signs in with a provider's ID token only; \(providerId) gives none: use the browser flow (\(browser)), which Supabase runs itself."
            )
        }
        guard Self.idTokenGrantProviders.contains(name) || name.hasPrefix("custom:") else {
            throw .unsupported(
                "Supabase's ID token sign-in does not take \(providerId): use the browser flow (\(browser)), which Supabase runs itself."
            )
        }
    }

    /// Builds GoTrue's `/authorize` URL with a PKCE challenge; no call is made. The browser
    /// comes back to `redirectUri` with a `state` of the daemon's added to its query (GoTrue
    /// keeps `redirect_to`'s query and adds `code`). `redirectUri` must match the project's
    /// redirect allow list (`http://127.0.0.1:*/**`, docs/providers.md). The verifier is the
    /// backend secret.
    public func startBrowserSignIn(
        providerId: String, redirectUri: String
    ) async throws(RemoteAuthError) -> BrowserSignInStart {
        let verifier = PKCE.makeVerifier()
        let state = PKCE.makeState()
        let url = client.authURL(
            "authorize",
            query: [
                ("provider", SupabaseProviderIds.supabaseName(providerId)),
                ("redirect_to", Self.adding(("state", state), to: redirectUri)),
                ("code_challenge", PKCE.challenge(for: verifier)), ("code_challenge_method", "s256"),
            ])
        return BrowserSignInStart(
            providerId: providerId, redirectUri: redirectUri, authorizationUrl: url, state: state,
            backendSecret: verifier)
    }

    /// Exchanges the callback's `code` with the verifier (`POST /token?grant_type=pkce
    /// {auth_code, code_verifier}`). A callback with `error=access_denied` is `access-denied`,
    /// with any other `error` (or no `code`) `invalid-credential`, without a call. GoTrue cannot
    /// link at the callback: `linkingTo` is not used; the result is the identity's own account
    /// (signed in, or signed up), and the service merges the guest into it. `isNewUser` is
    /// false: GoTrue's answer does not say.
    public func completeBrowserSignIn(
        _ start: BrowserSignInStart, callbackUrl: String, linkingTo: IDToken?
    ) async throws(RemoteAuthError) -> BrowserSignInCompletion {
        let callback = CallbackQuery(callbackUrl)
        if let error = callback.value("error") ?? callback.value("error_code") {
            throw .rejected(
                AuthError(error == "access_denied" ? .accessDenied : .invalidCredential, providerId: start.providerId))
        }
        guard let code = callback.value("code") else {
            throw .rejected(AuthError(.invalidCredential, providerId: start.providerId))
        }
        let context = SupabaseCallContext(
            name: "auth.token.pkce", fallback: .invalidCredential, validationReason: .invalidCredential,
            providerId: start.providerId)
        let request = client.request(
            context.name, .POST, url: client.authURL("token", query: [("grant_type", "pkce")]), bearer: .nobody,
            body: PKCEGrantBody(authCode: code, codeVerifier: start.backendSecret))
        let answer = try await client.send(request, context: context, as: GoTrueSession.self)
        return .signedIn(try signedIn(answer, name: context.name, isNewUser: false))
    }

    /// Spends the `hashed_token` of an admin-generated magic link (`POST /verify {type:
    /// magiclink, token_hash}`). A wrong, used or expired token is `invalid-custom-token`.
    public func signIn(customToken: String) async throws(RemoteAuthError) -> SignInResult {
        let token = customToken.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else { throw .rejected(AuthError(.invalidCustomToken)) }
        let context = SupabaseCallContext(
            name: "auth.verify.token_hash", fallback: .invalidCustomToken, validationReason: .invalidCustomToken)
        let request = client.request(
            context.name, .POST, url: client.authURL("verify"), bearer: .nobody,
            body: VerifyBody(type: "magiclink", tokenHash: token))
        let answer: GoTrueSession
        do {
            answer = try await client.send(request, context: context, as: GoTrueSession.self)
        } catch .rejected(let error) where error.reason == .invalidActionCode {
            throw .rejected(AuthError(.invalidCustomToken))
        }
        return try signedIn(answer, name: context.name, isNewUser: false)
    }

    /// `url` with `parameter` added to its query (before any fragment).
    static func adding(_ parameter: (String, String), to url: String) -> String {
        var base = Substring(url)
        var fragment: Substring = ""
        if let hash = base.firstIndex(of: "#") {
            fragment = base[hash...]
            base = base[..<hash]
        }
        let separator = base.contains("?") ? (base.hasSuffix("?") || base.hasSuffix("&") ? "" : "&") : "?"
        return String(base) + separator + PercentEncoding.form([parameter]) + String(fragment)
    }

    /// The provider as `sesamectl sign-in` names it.
    static func commandName(_ providerId: String) -> String {
        switch providerId {
        case "google.com": "google"
        case "github.com": "github"
        default: providerId
        }
    }
}
