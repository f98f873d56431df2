import Foundation
import NIOHTTP1
import SesameCore
import SesameEmulator
import SesameEmulatorTesting
import SesameFirebase
import SesameHTTP
import SesameTesting
import Testing

/// Custom tokens and the backend-run browser sign-in over real HTTP against `SesameEmulator`.
/// The browser tests drive the emulator's fake identity provider (`/emulator/v1/idp/<id>/authorize`)
/// the way a browser would: the consent form's POST, then the redirect's `Location`.
@Suite("Firebase auth provider: sign-in flows against the emulator")
struct FirebaseSignInFlowEmulatorTests {
    static let audience = "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"
    static let redirect = "http://127.0.0.1:4711/callback"

    /// An unsigned custom token, as firebase-admin mints one for an emulator, issued at `now`
    /// (the emulator's clock: the harness moves it by hand) and valid for an hour.
    static func customToken(
        uid: String, audience: String = audience, claims: String = "{}", now: Int = 1_800_000_000
    ) -> String {
        let payload =
            #"{"aud":"\#(audience)","iat":\#(now),"exp":\#(now + 3600),"iss":"firebase-adminsdk@demo-project.iam.gserviceaccount.com","sub":"firebase-adminsdk@demo-project.iam.gserviceaccount.com","uid":"\#(uid)","claims":\#(claims)}"#
        return TestJWT.encode(#"{"alg":"none","typ":"JWT"}"#) + "." + TestJWT.encode(payload) + "."
    }

    @Test("a custom token signs in to its uid, creating the account once")
    func customToken() async throws {
        try await EmulatorHarness.with { h in
            #expect(h.time.clock.milliseconds() / 1000 == 1_800_000_000)
            let first = try await h.auth.signIn(customToken: Self.customToken(uid: "fleet-1"))
            #expect(first.uid == "fleet-1" && first.isNewUser && first.idToken.signInProvider == "custom")
            let again = try await h.auth.signIn(customToken: Self.customToken(uid: "fleet-1") + "\n")
            #expect(again.uid == "fleet-1" && !again.isNewUser)
            // A custom-token account is no guest (the JS SDK would call it anonymous).
            let user = try await h.auth.lookup(again.idToken)
            #expect(user.uid == "fleet-1" && !user.isAnonymous && user.providers.isEmpty)
            #expect(try await h.auth.refresh(again.refreshToken).uid == "fleet-1")
        }
    }

    @Test("malformed, misaddressed and refused custom tokens are invalid-custom-token")
    func refusedCustomTokens() async throws {
        try await EmulatorHarness.with { h in
            let tokens = [
                "not-a-token", Self.customToken(uid: "x", audience: "https://example.com"),
                Self.customToken(uid: "x", claims: "[1]"), Self.customToken(uid: ""),
            ]
            for token in tokens {
                await #expect(throws: RemoteAuthError.rejected(AuthError(.invalidCustomToken)), "\(token)") {
                    _ = try await h.auth.signIn(customToken: token)
                }
            }
        }
    }

    // The tests below need the emulator of issue 20 (expired custom tokens, the fake identity
    // provider).

    @Test("an expired custom token is invalid-custom-token")
    func expiredCustomToken() async throws {
        try await EmulatorHarness.with { h in
            await #expect(throws: RemoteAuthError.rejected(AuthError(.invalidCustomToken))) {
                _ = try await h.auth.signIn(customToken: Self.customToken(uid: "late", now: 1_800_000_000 - 7200))
            }
        }
    }

    /// Approves (or denies) the fake provider's consent form of `start` and returns the URL the
    /// browser is sent back to.
    static func browse(
        _ start: BrowserSignInStart, email: String, deny: Bool = false, transport: any HTTPTransport
    ) async throws -> String {
        var fields = [("email", email)]
        if deny { fields.append(("action", "deny")) }
        let request = HTTPRequest.form(name: "authorize", method: .POST, url: start.authorizationUrl, fields: fields)
        let response = try await transport.send(request)
        #expect(response.status == 302, "\(response)")
        return try #require(response.headers.first(name: "Location"))
    }

    @Test("browser sign-in: createAuthUri, the provider's consent, signInWithIdp with the session id")
    func browserSignIn() async throws {
        try await EmulatorHarness.with { h in
            let start = try await h.auth.startBrowserSignIn(providerId: "google.com", redirectUri: Self.redirect)
            #expect(start.authorizationUrl.contains("/emulator/v1/idp/google.com/authorize"))
            #expect(!start.state.isEmpty && !start.backendSecret.isEmpty)
            let callback = try await Self.browse(start, email: "ann@example.com", transport: h.transport)
            #expect(callback.hasPrefix(Self.redirect) && CallbackQuery(callback).value("state") == start.state)
            guard
                case .signedIn(let result) = try await h.auth.completeBrowserSignIn(
                    start, callbackUrl: callback, linkingTo: nil)
            else { throw HarnessError("not signed in") }
            #expect(result.isNewUser)
            let user = try await h.auth.lookup(result.idToken)
            #expect(user.email == "ann@example.com" && user.providers.contains("google.com") && !user.isAnonymous)
        }
    }

    @Test(
        "browser sign-in from a guest links (uid kept); an identity another account owns comes back as its credential")
    func browserLinking() async throws {
        try await EmulatorHarness.with { h in
            let guest = try await h.auth.signUpAnonymously()
            let start = try await h.auth.startBrowserSignIn(providerId: "google.com", redirectUri: Self.redirect)
            let callback = try await Self.browse(start, email: "bea@example.com", transport: h.transport)
            guard
                case .signedIn(let linked) = try await h.auth.completeBrowserSignIn(
                    start, callbackUrl: callback, linkingTo: guest.idToken)
            else { throw HarnessError("not linked") }
            #expect(linked.uid == guest.uid)

            let other = try await h.auth.signUpAnonymously()
            let second = try await h.auth.startBrowserSignIn(providerId: "google.com", redirectUri: Self.redirect)
            let again = try await Self.browse(second, email: "bea@example.com", transport: h.transport)
            let completion = try await h.auth.completeBrowserSignIn(
                second, callbackUrl: again, linkingTo: other.idToken)
            guard case .belongsToAnotherAccount(let credential, let error) = completion else {
                throw HarnessError("expected the owner's credential, got \(completion)")
            }
            #expect(error.reason == .credentialAlreadyInUse || error.reason == .emailAlreadyInUse)
            // The credential signs in to the account that owns the identity, without another trip.
            #expect(try await h.auth.signIn(federated: credential, linkingTo: nil).uid == guest.uid)
        }
    }

    @Test("browser sign-in: a denial at the provider is access-denied")
    func browserDenied() async throws {
        try await EmulatorHarness.with { h in
            let start = try await h.auth.startBrowserSignIn(providerId: "github.com", redirectUri: Self.redirect)
            let callback = try await Self.browse(start, email: "cy@example.com", deny: true, transport: h.transport)
            await #expect(throws: RemoteAuthError.rejected(AuthError(.accessDenied, providerId: "github.com"))) {
                _ = try await h.auth.completeBrowserSignIn(start, callbackUrl: callback, linkingTo: nil)
            }
        }
    }
}
