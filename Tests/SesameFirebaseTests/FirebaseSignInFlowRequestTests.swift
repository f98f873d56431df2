import Foundation
import SesameCore
import SesameFirebase
import SesameHTTP
import SesameTesting
import Testing

/// Request shapes and answers of the browser sign-in (`createAuthUri` + `signInWithIdp
/// {requestUri, sessionId}`) and of custom tokens, over a scripted transport.
@Suite("Firebase auth provider: sign-in flow requests")
struct FirebaseSignInFlowRequestTests {
    let base = "https://identitytoolkit.googleapis.com/v1"
    static let redirect = "http://127.0.0.1:4711/callback"
    static let authUri =
        "https://accounts.google.com/o/oauth2/auth?response_type=code&client_id=web&redirect_uri=http%3A%2F%2F127.0.0.1%3A4711%2Fcallback&state=STATE-1&scope=openid"

    static func start(state: String = "STATE-1") -> BrowserSignInStart {
        BrowserSignInStart(
            providerId: "google.com", redirectUri: redirect, authorizationUrl: authUri, state: state,
            backendSecret: "SESSION-1")
    }

    @Test("start: createAuthUri with providerId and continueUri; the state comes from authUri")
    func start() async throws {
        let transport = ScriptedTransport([
            .json(
                200,
                #"{"kind":"identitytoolkit#CreateAuthUriResponse","authUri":"\#(Self.authUri)","providerId":"google.com","sessionId":"SESSION-1"}"#
            ),
            .json(200, #"{"authUri":"https://idp.example/authorize?client_id=x","sessionId":"SESSION-2"}"#),
            .json(200, #"{"sessionId":"SESSION-3"}"#),
        ])
        let provider = Fixtures.provider(transport)
        #expect(
            try await provider.startBrowserSignIn(providerId: "google.com", redirectUri: Self.redirect) == Self.start())
        // Without a state in authUri the adapter cannot name one: empty.
        let stateless = try await provider.startBrowserSignIn(providerId: "oidc.x", redirectUri: Self.redirect)
        #expect(stateless.state == "" && stateless.backendSecret == "SESSION-2")
        await #expect(throws: RemoteAuthError.malformedResponse("accounts:createAuthUri: no authUri or sessionId")) {
            _ = try await provider.startBrowserSignIn(providerId: "google.com", redirectUri: Self.redirect)
        }
        let snapshots = await transport.snapshots
        #expect(
            snapshots.first == """
                POST \(base)/accounts:createAuthUri?key=test-key
                content-type: application/json

                {"continueUri":"\(Self.redirect)","providerId":"google.com"}
                """)
    }

    @Test("start: a provider the project has not enabled is operation-not-allowed saying what to enable")
    func startNotEnabled() async throws {
        let transport = ScriptedTransport([.error(400, "OPERATION_NOT_ALLOWED")])
        let error = await #expect(throws: RemoteAuthError.self) {
            _ = try await Fixtures.provider(transport).startBrowserSignIn(
                providerId: "github.com", redirectUri: Self.redirect)
        }
        guard case .unsupported(let message)? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(message.contains("github.com") && message.contains("Sign-in method"))
    }

    @Test("complete: signInWithIdp with the callback URL and the session id; linking sends the ID token")
    func complete() async throws {
        let jwt = TestJWT.make(uid: "uid-g", provider: "google.com")
        let answer =
            #"{"providerId":"google.com","localId":"uid-g","idToken":"\#(jwt)","refreshToken":"r","expiresIn":"3600","isNewUser":true}"#
        let transport = ScriptedTransport([.json(200, answer), .json(200, answer)])
        let provider = Fixtures.provider(transport)
        let callback = Self.redirect + "?state=STATE-1&code=CODE-1"
        let signedIn = try await provider.completeBrowserSignIn(Self.start(), callbackUrl: callback, linkingTo: nil)
        guard case .signedIn(let result) = signedIn else {
            Issue.record("\(signedIn)")
            return
        }
        #expect(result.uid == "uid-g" && result.isNewUser && result.idToken.signInProvider == "google.com")
        _ = try await provider.completeBrowserSignIn(Self.start(), callbackUrl: callback, linkingTo: Fixtures.idToken())
        let requests = await transport.requests
        #expect(
            requests.map(\.bodyText) == [
                #"{"requestUri":"\#(callback)","returnIdpCredential":true,"returnSecureToken":true,"sessionId":"SESSION-1"}"#,
                #"{"idToken":"CALLER.ID.TOKEN","requestUri":"\#(callback)","returnIdpCredential":true,"returnSecureToken":true,"sessionId":"SESSION-1"}"#,
            ])
    }

    @Test("complete: an identity another account owns comes back with the provider's tokens")
    func belongsToAnotherAccount() async throws {
        let transport = ScriptedTransport([
            .json(
                200,
                #"{"providerId":"google.com","email":"ann@example.com","oauthIdToken":"IDP-ID","oauthAccessToken":"IDP-ACCESS","errorMessage":"FEDERATED_USER_ID_ALREADY_LINKED"}"#
            ),
            .json(
                200,
                #"{"providerId":"github.com","email":"bob@example.com","oauthAccessToken":"GH","errorMessage":"EMAIL_EXISTS"}"#
            ),
            .json(200, #"{"providerId":"google.com","email":"cy@example.com","errorMessage":"EMAIL_EXISTS"}"#),
        ])
        let provider = Fixtures.provider(transport)
        let callback = Self.redirect + "?state=STATE-1&code=CODE-1"
        #expect(
            try await provider.completeBrowserSignIn(Self.start(), callbackUrl: callback, linkingTo: Fixtures.idToken())
                == .belongsToAnotherAccount(
                    FederatedCredential(providerId: "google.com", idToken: "IDP-ID", accessToken: "IDP-ACCESS"),
                    AuthError(.credentialAlreadyInUse, email: "ann@example.com", providerId: "google.com")))
        #expect(
            try await provider.completeBrowserSignIn(Self.start(), callbackUrl: callback, linkingTo: Fixtures.idToken())
                == .belongsToAnotherAccount(
                    FederatedCredential(providerId: "github.com", idToken: nil, accessToken: "GH"),
                    AuthError(.emailAlreadyInUse, email: "bob@example.com", providerId: "github.com")))
        // Without the provider's tokens there is nothing to sign in with: the conflict is thrown.
        await #expect(
            throws: RemoteAuthError.rejected(
                AuthError(.emailAlreadyInUse, email: "cy@example.com", providerId: "google.com"))
        ) {
            _ = try await provider.completeBrowserSignIn(
                Self.start(), callbackUrl: callback, linkingTo: Fixtures.idToken())
        }
    }

    @Test("complete: an error callback is access-denied or invalid-credential, without a call")
    func errorCallback() async throws {
        let transport = ScriptedTransport([])
        let provider = Fixtures.provider(transport)
        await #expect(throws: RemoteAuthError.rejected(AuthError(.accessDenied, providerId: "google.com"))) {
            _ = try await provider.completeBrowserSignIn(
                Self.start(), callbackUrl: Self.redirect + "?error=access_denied&state=STATE-1", linkingTo: nil)
        }
        await #expect(throws: RemoteAuthError.rejected(AuthError(.invalidCredential, providerId: "google.com"))) {
            _ = try await provider.completeBrowserSignIn(
                Self.start(), callbackUrl: Self.redirect + "?state=STATE-1&error=server_error", linkingTo: nil)
        }
        #expect(await transport.requests.isEmpty)
    }

    @Test("custom token: request shape; the uid comes from the ID token when the answer has no localId")
    func customToken() async throws {
        let jwt = TestJWT.make(uid: "fleet-7", provider: "custom")
        let transport = ScriptedTransport([
            .json(
                200,
                #"{"kind":"identitytoolkit#VerifyCustomTokenResponse","idToken":"\#(jwt)","refreshToken":"r","expiresIn":"3600","isNewUser":true}"#
            )
        ])
        let result = try await Fixtures.provider(transport).signIn(customToken: " CUSTOM.TOKEN.X\n")
        #expect(result.uid == "fleet-7" && result.isNewUser && result.idToken.signInProvider == "custom")
        #expect(
            await transport.snapshots == [
                """
                POST \(base)/accounts:signInWithCustomToken?key=test-key
                content-type: application/json

                {"returnSecureToken":true,"token":"CUSTOM.TOKEN.X"}
                """
            ])
    }

    @Test(
        "custom token: a refused token is invalid-custom-token",
        arguments: [
            "INVALID_CUSTOM_TOKEN : Invalid assertion format.", "MISSING_CUSTOM_TOKEN", "CREDENTIAL_MISMATCH",
            "INVALID_CLAIMS", "FORBIDDEN_CLAIM : iss", "MISSING_IDENTIFIER", "TOKEN_EXPIRED",
        ])
    func refusedCustomToken(message: String) async throws {
        let transport = ScriptedTransport([.error(400, message)])
        await #expect(throws: RemoteAuthError.rejected(AuthError(.invalidCustomToken))) {
            _ = try await Fixtures.provider(transport).signIn(customToken: "t")
        }
    }

    @Test("custom token: an empty token is refused without a call; a disabled account is user-disabled")
    func customTokenEdges() async throws {
        let transport = ScriptedTransport([.error(400, "USER_DISABLED")])
        let provider = Fixtures.provider(transport)
        await #expect(throws: RemoteAuthError.rejected(AuthError(.invalidCustomToken))) {
            _ = try await provider.signIn(customToken: " \n")
        }
        #expect(await transport.requests.isEmpty)
        await #expect(throws: RemoteAuthError.rejected(AuthError(.userDisabled))) {
            _ = try await provider.signIn(customToken: "t")
        }
    }

    @Test("a custom-token account is not anonymous; a bare account is")
    func customAuthIsNoGuest() async throws {
        let transport = ScriptedTransport([
            .json(200, #"{"users":[{"localId":"fleet-7","customAuth":true,"createdAt":"1"}]}"#),
            .json(200, #"{"users":[{"localId":"guest","createdAt":"1"}]}"#),
        ])
        let provider = Fixtures.provider(transport)
        #expect(try await provider.lookup(Fixtures.idToken()).isAnonymous == false)
        #expect(try await provider.lookup(Fixtures.idToken()).isAnonymous)
    }
}
