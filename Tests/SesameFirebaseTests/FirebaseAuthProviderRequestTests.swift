import Foundation
import NIOHTTP1
import SesameCore
import SesameFirebase
import SesameHTTP
import Testing

/// Request shapes of every endpoint (docs/firebase.md, "Endpoints"), as snapshots, and how each answer is
/// read.
@Suite("Firebase auth provider: requests and answers")
struct FirebaseAuthProviderRequestTests {
    let base = "https://identitytoolkit.googleapis.com/v1"

    @Test("anonymous sign-up")
    func signUpAnonymously() async throws {
        let transport = ScriptedTransport([Fixtures.signInAnswer()])
        let result = try await Fixtures.provider(transport).signUpAnonymously()
        #expect(await transport.snapshots == [
            """
            POST \(base)/accounts:signUp?key=test-key
            content-type: application/json

            {"returnSecureToken":true}
            """
        ])
        #expect(result.uid == "uid-1")
        #expect(result.isNewUser)
        #expect(result.idToken.rawValue == Fixtures.anonymousJWT)
        #expect(result.idToken.signInProvider == "anonymous")
        #expect(result.idToken.issuedAt == Fixtures.now)
        #expect(result.idToken.expiresAt == Fixtures.now.addingTimeInterval(3600))
        #expect(result.refreshToken == RefreshToken("refresh-1"))
    }

    @Test("an emulator host moves every URL under http://HOST:PORT/<production host>/")
    func emulatorURLs() async throws {
        let transport = ScriptedTransport([
            Fixtures.signInAnswer(),
            .json(200, #"{"id_token":"\#(Fixtures.anonymousJWT)","refresh_token":"r2","expires_in":"3600","user_id":"uid-1"}"#),
        ])
        let provider = Fixtures.provider(transport, configuration: Fixtures.emulator)
        _ = try await provider.signUpAnonymously()
        _ = try await provider.refresh(RefreshToken("r1"))
        #expect(await transport.requests.map(\.url) == [
            "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1/accounts:signUp?key=test-key",
            "http://127.0.0.1:9099/securetoken.googleapis.com/v1/token?key=test-key",
        ])
    }

    @Test("the API key is percent-encoded in the query")
    func apiKeyEncoding() async throws {
        let transport = ScriptedTransport([Fixtures.signInAnswer()])
        let configuration = FirebaseConfiguration(apiKey: "a b&c=d", projectId: "p")
        _ = try await Fixtures.provider(transport, configuration: configuration).signUpAnonymously()
        #expect(await transport.requests.first?.url == "\(base)/accounts:signUp?key=a%20b%26c%3Dd")
    }

    @Test("refresh: form body, snake_case answer, both tokens replaced")
    func refresh() async throws {
        let jwt = TestJWT.make(uid: "uid-9", provider: "password")
        let transport = ScriptedTransport([
            .json(200, #"{"id_token":"\#(jwt)","access_token":"\#(jwt)","expires_in":"1800","refresh_token":"new-refresh","token_type":"Bearer","user_id":"uid-9","project_id":"12345"}"#)
        ])
        let grant = try await Fixtures.provider(transport).refresh(RefreshToken("old/refresh+token="))
        #expect(await transport.snapshots == [
            """
            POST https://securetoken.googleapis.com/v1/token?key=test-key
            content-type: application/x-www-form-urlencoded

            grant_type=refresh_token&refresh_token=old%2Frefresh%2Btoken%3D
            """
        ])
        #expect(grant.uid == "uid-9")
        #expect(grant.refreshToken == RefreshToken("new-refresh"))
        #expect(grant.idToken.rawValue == jwt)
        #expect(grant.idToken.signInProvider == "password")
        #expect(grant.idToken.expiresAt == Fixtures.now.addingTimeInterval(1800))
    }

    @Test("lookup maps a user record onto User")
    func lookup() async throws {
        let transport = ScriptedTransport([
            .json(200, #"""
            {"kind":"identitytoolkit#GetAccountInfoResponse","users":[{"localId":"uid-1","email":"ann@example.com",
             "emailVerified":true,"displayName":"Ann","passwordHash":"fakeHash:salt=x:password=y",
             "providerUserInfo":[{"providerId":"password","rawId":"ann@example.com","federatedId":"ann@example.com"},
                                 {"providerId":"google.com","rawId":"123","federatedId":"https://accounts.google.com/123"}],
             "createdAt":"1700000000000","lastLoginAt":"1700000500000","validSince":"1700000000"}]}
            """#)
        ])
        let user = try await Fixtures.provider(transport).lookup(Fixtures.idToken())
        #expect(await transport.snapshots == [
            """
            POST \(base)/accounts:lookup?key=test-key
            content-type: application/json

            {"idToken":"CALLER.ID.TOKEN"}
            """
        ])
        #expect(user == User(
            uid: "uid-1", isAnonymous: false, email: "ann@example.com", emailVerified: true, displayName: "Ann",
            providers: ["password", "google.com"],
            createdAt: Date(timeIntervalSince1970: 1_700_000_000), lastSignInAt: Date(timeIntervalSince1970: 1_700_000_500)
        ))
    }

    @Test("lookup: no providers and no email is anonymous; an email without password stays anonymous")
    func lookupAnonymous() async throws {
        let transport = ScriptedTransport([
            .json(200, #"{"users":[{"localId":"anon","createdAt":"1700000000000","lastLoginAt":"1700000000000"}]}"#),
            .json(200, #"{"users":[{"localId":"anon","email":"","emailVerified":false}]}"#),
            .json(200, #"{"users":[{"localId":"anon","email":"ann@example.com"}]}"#),
            .json(200, #"{"users":[{"localId":"u","email":"ann@example.com","passwordHash":"UkVEQUNURUQ="}]}"#),
        ])
        let provider = Fixtures.provider(transport)
        let first = try await provider.lookup(Fixtures.idToken())
        #expect(first.isAnonymous && first.providers.isEmpty && first.email == nil)
        let second = try await provider.lookup(Fixtures.idToken())
        #expect(second.isAnonymous && second.email == nil)
        #expect(try await provider.lookup(Fixtures.idToken()).isAnonymous)
        #expect(try await provider.lookup(Fixtures.idToken()).isAnonymous == false)
    }

    @Test("delete account")
    func deleteAccount() async throws {
        let transport = ScriptedTransport([.json(200, #"{"kind":"identitytoolkit#DeleteAccountResponse"}"#)])
        try await Fixtures.provider(transport).deleteAccount(Fixtures.idToken())
        #expect(await transport.snapshots == [
            """
            POST \(base)/accounts:delete?key=test-key
            content-type: application/json

            {"idToken":"CALLER.ID.TOKEN"}
            """
        ])
    }

    @Test("email/password sign-up, and linking to the caller")
    func signUpWithPassword() async throws {
        let transport = ScriptedTransport([
            Fixtures.signInAnswer(uid: "new", jwt: Fixtures.passwordJWT),
            Fixtures.signInAnswer(uid: "anon", jwt: Fixtures.passwordJWT),
        ])
        let provider = Fixtures.provider(transport)
        let created = try await provider.signUp(email: "ann@example.com", password: "s3cret!", linkingTo: nil)
        let linked = try await provider.signUp(email: "ann@example.com", password: "s3cret!", linkingTo: Fixtures.idToken())
        #expect(await transport.snapshots == [
            """
            POST \(base)/accounts:signUp?key=test-key
            content-type: application/json

            {"email":"ann@example.com","password":"s3cret!","returnSecureToken":true}
            """,
            """
            POST \(base)/accounts:signUp?key=test-key
            content-type: application/json

            {"email":"ann@example.com","idToken":"CALLER.ID.TOKEN","password":"s3cret!","returnSecureToken":true}
            """,
        ])
        #expect(created.isNewUser && created.uid == "new" && created.idToken.signInProvider == "password")
        #expect(!linked.isNewUser && linked.uid == "anon")
    }

    @Test("password sign-in")
    func signInWithPassword() async throws {
        let transport = ScriptedTransport([Fixtures.signInAnswer(jwt: Fixtures.passwordJWT, extra: #","registered":true"#)])
        let result = try await Fixtures.provider(transport).signIn(email: "ann@example.com", password: "pw123456")
        #expect(await transport.snapshots == [
            """
            POST \(base)/accounts:signInWithPassword?key=test-key
            content-type: application/json

            {"email":"ann@example.com","password":"pw123456","returnSecureToken":true}
            """
        ])
        #expect(!result.isNewUser)
    }

    @Test("sign-in link: default and explicit continue URL")
    func sendSignInLink() async throws {
        let transport = ScriptedTransport([
            .json(200, #"{"kind":"identitytoolkit#GetOobConfirmationCodeResponse","email":"ann@example.com"}"#),
            .json(200, #"{"email":"ann@example.com"}"#),
        ])
        let provider = Fixtures.provider(transport)
        try await provider.sendSignInLink(email: "ann@example.com", continueUrl: nil)
        try await provider.sendSignInLink(email: "ann@example.com", continueUrl: "https://app.example/done")
        #expect(await transport.snapshots == [
            """
            POST \(base)/accounts:sendOobCode?key=test-key
            content-type: application/json

            {"canHandleCodeInApp":true,"continueUrl":"http://localhost","email":"ann@example.com","requestType":"EMAIL_SIGNIN"}
            """,
            """
            POST \(base)/accounts:sendOobCode?key=test-key
            content-type: application/json

            {"canHandleCodeInApp":true,"continueUrl":"https://app.example/done","email":"ann@example.com","requestType":"EMAIL_SIGNIN"}
            """,
        ])
    }

    @Test("email-link sign-in, with and without linking")
    func signInWithEmailLink() async throws {
        let transport = ScriptedTransport([
            Fixtures.signInAnswer(uid: "new", jwt: Fixtures.passwordJWT, extra: #","isNewUser":true"#),
            Fixtures.signInAnswer(uid: "anon", jwt: Fixtures.passwordJWT, extra: #","isNewUser":false"#),
        ])
        let provider = Fixtures.provider(transport)
        let created = try await provider.signIn(email: "ann@example.com", proof: .link(Fixtures.signInLink("CODE-1")), linkingTo: nil)
        let linked = try await provider.signIn(email: "ann@example.com", proof: .link(Fixtures.signInLink("CODE-2")), linkingTo: Fixtures.idToken())
        #expect(await transport.snapshots == [
            """
            POST \(base)/accounts:signInWithEmailLink?key=test-key
            content-type: application/json

            {"email":"ann@example.com","oobCode":"CODE-1","returnSecureToken":true}
            """,
            """
            POST \(base)/accounts:signInWithEmailLink?key=test-key
            content-type: application/json

            {"email":"ann@example.com","idToken":"CALLER.ID.TOKEN","oobCode":"CODE-2","returnSecureToken":true}
            """,
        ])
        #expect(created.isNewUser && created.uid == "new")
        #expect(!linked.isNewUser && linked.uid == "anon")
    }

    @Test("email-link sign-in is sent once, even when the transport fails")
    func emailLinkNeverRetried() async throws {
        let transport = ScriptedTransport([.failure(.requestTimedOut), Fixtures.signInAnswer()])
        await #expect(throws: RemoteAuthError.transport("request timed out")) {
            _ = try await Fixtures.provider(transport).signIn(email: "a@b.c", proof: .link(Fixtures.signInLink("CODE")), linkingTo: nil)
        }
        #expect(await transport.requests.count == 1)
    }

    @Test("federated sign-in: request shape and tokens")
    func signInWithIdp() async throws {
        let google = TestJWT.make(provider: "google.com")
        let transport = ScriptedTransport([
            .json(200, #"{"kind":"identitytoolkit#VerifyAssertionResponse","providerId":"google.com","localId":"uid-g","email":"ann@example.com","idToken":"\#(google)","refreshToken":"r","expiresIn":"3600","isNewUser":true,"oauthIdToken":"x"}"#),
            .json(200, #"{"providerId":"github.com","localId":"anon","idToken":"\#(google)","refreshToken":"r","expiresIn":"3600"}"#),
        ])
        let provider = Fixtures.provider(transport)
        let credential = FederatedCredential(providerId: "google.com", idToken: #"{"sub":"123","email":"ann@example.com"}"#, accessToken: nil)
        let result = try await provider.signIn(federated: credential, linkingTo: nil)
        let linked = try await provider.signIn(
            federated: FederatedCredential(providerId: "github.com", idToken: nil, accessToken: "gh token"),
            linkingTo: Fixtures.idToken()
        )
        #expect(await transport.snapshots == [
            """
            POST \(base)/accounts:signInWithIdp?key=test-key
            content-type: application/json

            {"postBody":"providerId=google.com&id_token=%7B%22sub%22%3A%22123%22%2C%22email%22%3A%22ann%40example.com%22%7D","requestUri":"http://localhost","returnIdpCredential":true,"returnSecureToken":true}
            """,
            """
            POST \(base)/accounts:signInWithIdp?key=test-key
            content-type: application/json

            {"idToken":"CALLER.ID.TOKEN","postBody":"providerId=github.com&access_token=gh%20token","requestUri":"http://localhost","returnIdpCredential":true,"returnSecureToken":true}
            """,
        ])
        #expect(result.uid == "uid-g" && result.isNewUser && result.idToken.signInProvider == "google.com")
        #expect(linked.uid == "anon" && !linked.isNewUser)
    }

    @Test("federated sign-in: needConfirmation is account-exists-with-different-credential, with createAuthUri's methods")
    func needConfirmation() async throws {
        let transport = ScriptedTransport([
            .json(200, #"{"providerId":"google.com","localId":"owner","email":"ann@example.com","needConfirmation":true,"verifiedProvider":["github.com"]}"#),
            .json(200, #"{"kind":"identitytoolkit#CreateAuthUriResponse","registered":true,"allProviders":["password"],"signinMethods":["password","emailLink"],"sessionId":"s"}"#),
        ])
        let credential = FederatedCredential(providerId: "google.com", idToken: "{}", accessToken: nil)
        await #expect(throws: RemoteAuthError.rejected(AuthError(
            .accountExistsWithDifferentCredential, email: "ann@example.com", providerId: "google.com",
            providers: ["password", "emailLink"]
        ))) {
            _ = try await Fixtures.provider(transport).signIn(federated: credential, linkingTo: nil)
        }
        #expect(await transport.requests.map(\.name) == ["accounts:signInWithIdp", "accounts:createAuthUri"])
    }

    @Test("federated sign-in: needConfirmation falls back to verifiedProvider when methods are hidden")
    func needConfirmationHidden() async throws {
        let transport = ScriptedTransport([
            .json(200, #"{"providerId":"google.com","email":"ann@example.com","needConfirmation":true,"verifiedProvider":["github.com"]}"#),
            .json(200, #"{"kind":"identitytoolkit#CreateAuthUriResponse","sessionId":"s"}"#),
        ])
        let credential = FederatedCredential(providerId: "google.com", idToken: "{}", accessToken: nil)
        await #expect(throws: RemoteAuthError.rejected(AuthError(
            .accountExistsWithDifferentCredential, email: "ann@example.com", providerId: "google.com", providers: ["github.com"]
        ))) {
            _ = try await Fixtures.provider(transport).signIn(federated: credential, linkingTo: nil)
        }
    }

    @Test("federated linking: 200 errorMessage conflicts carry email and provider")
    func idpErrorMessage() async throws {
        let transport = ScriptedTransport([
            .json(200, #"{"providerId":"google.com","email":"ann@example.com","oauthIdToken":"x","errorMessage":"FEDERATED_USER_ID_ALREADY_LINKED"}"#),
            .json(200, #"{"providerId":"google.com","email":"bob@example.com","errorMessage":"EMAIL_EXISTS"}"#),
        ])
        let provider = Fixtures.provider(transport)
        let credential = FederatedCredential(providerId: "google.com", idToken: "{}", accessToken: nil)
        await #expect(throws: RemoteAuthError.rejected(AuthError(.credentialAlreadyInUse, email: "ann@example.com", providerId: "google.com"))) {
            _ = try await provider.signIn(federated: credential, linkingTo: Fixtures.idToken())
        }
        await #expect(throws: RemoteAuthError.rejected(AuthError(.emailAlreadyInUse, email: "bob@example.com", providerId: "google.com"))) {
            _ = try await provider.signIn(federated: credential, linkingTo: Fixtures.idToken())
        }
    }

    @Test("federated sign-in without a token is refused without a request")
    func idpWithoutToken() async throws {
        let transport = ScriptedTransport([])
        await #expect(throws: RemoteAuthError.rejected(AuthError(.invalidCredential, providerId: "google.com"))) {
            _ = try await Fixtures.provider(transport).signIn(
                federated: FederatedCredential(providerId: "google.com", idToken: nil, accessToken: ""), linkingTo: nil
            )
        }
        #expect(await transport.requests.isEmpty)
    }

    @Test("sign-in methods: listed, unregistered, hidden")
    func signInMethods() async throws {
        let transport = ScriptedTransport([
            .json(200, #"{"registered":true,"signinMethods":["password","google.com"],"sessionId":"s"}"#),
            .json(200, #"{"registered":false,"sessionId":"s"}"#),
            .json(200, #"{"kind":"identitytoolkit#CreateAuthUriResponse","sessionId":"s"}"#),
        ])
        let provider = Fixtures.provider(transport)
        #expect(try await provider.signInMethods(forEmail: "ann@example.com") == ["password", "google.com"])
        #expect(try await provider.signInMethods(forEmail: "new@example.com") == [])
        #expect(try await provider.signInMethods(forEmail: "hidden@example.com") == nil)
        #expect(await transport.snapshots.first == """
            POST \(base)/accounts:createAuthUri?key=test-key
            content-type: application/json

            {"continueUri":"http://localhost","identifier":"ann@example.com"}
            """)
    }

    @Test("profile update: set, clear, and tokens only when issued")
    func updateProfile() async throws {
        let transport = ScriptedTransport([
            .json(200, #"{"kind":"identitytoolkit#SetAccountInfoResponse","localId":"uid-1","displayName":"Ann"}"#),
            .json(200, #"{"localId":"uid-1","idToken":"\#(Fixtures.passwordJWT)","refreshToken":"r2","expiresIn":"3600"}"#),
        ])
        let provider = Fixtures.provider(transport)
        #expect(try await provider.updateProfile(Fixtures.idToken(), displayName: "Ann") == nil)
        let grant = try await provider.updateProfile(Fixtures.idToken(), displayName: nil)
        #expect(grant?.uid == "uid-1" && grant?.refreshToken == RefreshToken("r2"))
        #expect(await transport.snapshots == [
            """
            POST \(base)/accounts:update?key=test-key
            content-type: application/json

            {"displayName":"Ann","idToken":"CALLER.ID.TOKEN","returnSecureToken":true}
            """,
            """
            POST \(base)/accounts:update?key=test-key
            content-type: application/json

            {"deleteAttribute":["DISPLAY_NAME"],"idToken":"CALLER.ID.TOKEN","returnSecureToken":true}
            """,
        ])
    }

    @Test("unlink")
    func unlink() async throws {
        let transport = ScriptedTransport([.json(200, #"{"localId":"uid-1","providerUserInfo":[]}"#)])
        try await Fixtures.provider(transport).unlink(Fixtures.idToken(), providerIds: ["password", "google.com"])
        #expect(await transport.snapshots == [
            """
            POST \(base)/accounts:update?key=test-key
            content-type: application/json

            {"deleteProvider":["password","google.com"],"idToken":"CALLER.ID.TOKEN","returnSecureToken":true}
            """
        ])
    }

    @Test("password reset and email verification")
    func oobCodes() async throws {
        let transport = ScriptedTransport([.json(200, #"{"email":"ann@example.com"}"#), .json(200, #"{"email":"ann@example.com"}"#)])
        let provider = Fixtures.provider(transport)
        try await provider.sendPasswordReset(email: "ann@example.com")
        try await provider.sendEmailVerification(Fixtures.idToken())
        #expect(await transport.snapshots == [
            """
            POST \(base)/accounts:sendOobCode?key=test-key
            content-type: application/json

            {"email":"ann@example.com","requestType":"PASSWORD_RESET"}
            """,
            """
            POST \(base)/accounts:sendOobCode?key=test-key
            content-type: application/json

            {"idToken":"CALLER.ID.TOKEN","requestType":"VERIFY_EMAIL"}
            """,
        ])
    }

    @Test("no request ever carries an Authorization header, and every one carries ?key=")
    func neverAuthorization() async throws {
        let transport = ScriptedTransport(Array(repeating: Fixtures.signInAnswer(), count: 20))
        let provider = Fixtures.provider(transport)
        let token = Fixtures.idToken()
        _ = try? await provider.signUpAnonymously()
        _ = try? await provider.refresh(RefreshToken("r"))
        _ = try? await provider.lookup(token)
        _ = try? await provider.deleteAccount(token)
        _ = try? await provider.signUp(email: "a@b.c", password: "pw1234", linkingTo: token)
        _ = try? await provider.signIn(email: "a@b.c", password: "pw1234")
        _ = try? await provider.sendSignInLink(email: "a@b.c", continueUrl: nil)
        _ = try? await provider.signIn(email: "a@b.c", proof: .link(Fixtures.signInLink("c")), linkingTo: token)
        _ = try? await provider.signIn(federated: FederatedCredential(providerId: "google.com", idToken: "{}", accessToken: nil), linkingTo: token)
        _ = try? await provider.signInMethods(forEmail: "a@b.c")
        _ = try? await provider.updateProfile(token, displayName: "x")
        _ = try? await provider.unlink(token, providerIds: ["password"])
        _ = try? await provider.sendPasswordReset(email: "a@b.c")
        _ = try? await provider.sendEmailVerification(token)
        let requests = await transport.requests
        #expect(requests.count == 14)
        for request in requests {
            #expect(request.headers["Authorization"].isEmpty, "\(request.name)")
            #expect(request.url.contains("?key=test-key"), "\(request.name)")
            #expect(request.method == .POST)
        }
    }
}
