import Foundation
import NIOHTTP1
import SesameCore
import SesameHTTP
import SesameSupabase
import SesameTesting
import Testing

/// The Supabase side of the sign-in flows over a scripted transport: which device flows GoTrue
/// can finish, the PKCE `/authorize` URL, the `pkce` grant, and magic-link hashes as custom tokens.
@Suite("Supabase auth provider: sign-in flow requests")
struct SupabaseSignInFlowRequestTests {
    static let redirect = "http://127.0.0.1:4711/callback"

    @Test("device flows: only providers whose ID token GoTrue takes; GitHub is pointed at the browser")
    func checkFederated() throws {
        let provider = Fixtures.provider(ScriptedTransport([]))
        try provider.checkFederatedSignIn(providerId: "google.com", yieldsIDToken: true)
        try provider.checkFederatedSignIn(providerId: "apple.com", yieldsIDToken: true)
        try provider.checkFederatedSignIn(providerId: "keycloak", yieldsIDToken: true)
        try provider.checkFederatedSignIn(providerId: "custom:corp", yieldsIDToken: true)
        for (id, yields, command) in [
            ("github.com", false, "sesamectl sign-in github --browser"),
            ("google.com", false, "sesamectl sign-in google --browser"),
            ("oidc.corp", true, "sesamectl sign-in oidc.corp --browser"),
        ] {
            let error = #expect(throws: RemoteAuthError.self) {
                try provider.checkFederatedSignIn(providerId: id, yieldsIDToken: yields)
            }
            guard case .unsupported(let message)? = error else {
                Issue.record("\(id): \(String(describing: error))")
                continue
            }
            #expect(message.contains(id) && message.contains(command), "\(message)")
        }
    }

    @Test("browser start: /authorize with the GoTrue provider name, redirect_to carrying state, an S256 challenge")
    func start() async throws {
        let transport = ScriptedTransport([])
        let provider = Fixtures.provider(transport)
        let start = try await provider.startBrowserSignIn(providerId: "google.com", redirectUri: Self.redirect)
        let other = try await provider.startBrowserSignIn(providerId: "github.com", redirectUri: Self.redirect + "?a=1")
        #expect(await transport.requests.isEmpty)
        #expect(start.authorizationUrl.hasPrefix("https://proj.supabase.co/auth/v1/authorize?"))
        let query = CallbackQuery(start.authorizationUrl)
        #expect(query.value("provider") == "google" && query.value("code_challenge_method") == "s256")
        #expect(query.value("redirect_to") == Self.redirect + "?state=" + start.state)
        #expect(
            CallbackQuery(other.authorizationUrl).value("redirect_to") == Self.redirect + "?a=1&state=" + other.state)
        #expect(CallbackQuery(other.authorizationUrl).value("provider") == "github")
        let challenge = try #require(query.value("code_challenge"))
        #expect(challenge.count == 43 && challenge != start.backendSecret)
        #expect((43...128).contains(start.backendSecret.count) && start.state.count >= 32)
        let urlSafe = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        for secret in [challenge, start.backendSecret, start.state] {
            #expect(secret.unicodeScalars.allSatisfy(urlSafe.contains))
        }
        // Fresh secrets every time.
        #expect(start.state != other.state && start.backendSecret != other.backendSecret)
        #expect(!start.authorizationUrl.contains(start.backendSecret))
    }

    @Test("browser completion: the pkce grant with the callback's code and the verifier")
    func complete() async throws {
        let transport = ScriptedTransport([
            Fixtures.session(jwt: Fixtures.passwordJWT, user: Fixtures.user(anonymous: false))
        ])
        let start = BrowserSignInStart(
            providerId: "google.com", redirectUri: Self.redirect, authorizationUrl: "https://x", state: "S",
            backendSecret: "VERIFIER")
        let completion = try await Fixtures.provider(transport).completeBrowserSignIn(
            start, callbackUrl: Self.redirect + "?state=S&code=CODE-1", linkingTo: Fixtures.idToken())
        guard case .signedIn(let result) = completion else {
            Issue.record("\(completion)")
            return
        }
        #expect(result.uid == "u-1" && !result.isNewUser)
        let requests = await transport.requests
        #expect(requests.map(\.url) == ["https://proj.supabase.co/auth/v1/token?grant_type=pkce"])
        #expect(requests.first?.bodyText == #"{"auth_code":"CODE-1","code_verifier":"VERIFIER"}"#)
        // No bearer: GoTrue cannot link here; the service merges the guest.
        #expect(requests.first?.headers.first(name: "Authorization") == nil)
    }

    @Test("browser completion: error callbacks and refused codes")
    func completeRefused() async throws {
        let transport = ScriptedTransport([.error(404, "flow_state_not_found"), .error(422, "flow_state_expired")])
        let provider = Fixtures.provider(transport)
        let start = BrowserSignInStart(
            providerId: "github.com", redirectUri: Self.redirect, authorizationUrl: "https://x", state: "S",
            backendSecret: "V")
        let cases: [(String, AuthError)] = [
            (
                "?state=S&error=access_denied&error_code=signup_disabled",
                AuthError(.accessDenied, providerId: "github.com")
            ),
            ("?state=S&error=server_error", AuthError(.invalidCredential, providerId: "github.com")),
            (
                "?state=S#error=invalid_request&error_code=bad_oauth_state",
                AuthError(.invalidCredential, providerId: "github.com")
            ),
            ("?state=S", AuthError(.invalidCredential, providerId: "github.com")),
            ("?state=S&code=C", AuthError(.invalidCredential)),
            ("?state=S&code=C", AuthError(.expiredSignInFlow)),
        ]
        for (query, expected) in cases {
            await #expect(throws: RemoteAuthError.rejected(expected), "\(query)") {
                _ = try await provider.completeBrowserSignIn(start, callbackUrl: Self.redirect + query, linkingTo: nil)
            }
        }
        #expect(await transport.requests.count == 2)
    }

    @Test("custom token: POST /verify with the hash as a magic link; a refused hash is invalid-custom-token")
    func customToken() async throws {
        let transport = ScriptedTransport([
            Fixtures.session(jwt: Fixtures.passwordJWT, user: Fixtures.user(anonymous: false)),
            .error(403, "otp_expired"), .error(400, "validation_failed"),
        ])
        let provider = Fixtures.provider(transport)
        let result = try await provider.signIn(customToken: "HASH-1\n")
        #expect(result.uid == "u-1")
        for _ in 0..<2 {
            await #expect(throws: RemoteAuthError.rejected(AuthError(.invalidCustomToken))) {
                _ = try await provider.signIn(customToken: "HASH-2")
            }
        }
        await #expect(throws: RemoteAuthError.rejected(AuthError(.invalidCustomToken))) {
            _ = try await provider.signIn(customToken: "  ")
        }
        let requests = await transport.requests
        #expect(requests.count == 3)
        #expect(requests.first?.url == "https://proj.supabase.co/auth/v1/verify")
        #expect(requests.first?.bodyText == #"{"token_hash":"HASH-1","type":"magiclink"}"#)
    }
}
