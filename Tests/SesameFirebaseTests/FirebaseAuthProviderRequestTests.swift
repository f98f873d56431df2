import Foundation
import NIOHTTP1
import SesameCore
import SesameFirebase
import SesameHTTP
import SesameTesting
import Testing

/// Request shapes of the session and account endpoints (docs/firebase.md, "Endpoints"), as
/// snapshots, and how each answer is read.
@Suite("Firebase auth provider: session and account requests")
struct FirebaseAuthProviderRequestTests {
    let base = "https://identitytoolkit.googleapis.com/v1"

    @Test("anonymous sign-up")
    func signUpAnonymously() async throws {
        let transport = ScriptedTransport([Fixtures.signInAnswer()])
        let result = try await Fixtures.provider(transport).signUpAnonymously()
        #expect(
            await transport.snapshots == [
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
            .json(
                200,
                #"{"id_token":"\#(Fixtures.anonymousJWT)","refresh_token":"r2","expires_in":"3600","user_id":"uid-1"}"#),
        ])
        let provider = Fixtures.provider(transport, configuration: Fixtures.emulator)
        _ = try await provider.signUpAnonymously()
        _ = try await provider.refresh(RefreshToken("r1"))
        #expect(
            await transport.requests.map(\.url) == [
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
            .json(
                200,
                #"{"id_token":"\#(jwt)","access_token":"\#(jwt)","expires_in":"1800","refresh_token":"new-refresh","token_type":"Bearer","user_id":"uid-9","project_id":"12345"}"#
            )
        ])
        let grant = try await Fixtures.provider(transport).refresh(RefreshToken("old/refresh+token="))
        #expect(
            await transport.snapshots == [
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
            .json(
                200,
                #"""
                {"kind":"identitytoolkit#GetAccountInfoResponse","users":[{"localId":"uid-1","email":"ann@example.com",
                 "emailVerified":true,"displayName":"Ann","passwordHash":"fakeHash:salt=x:password=y",
                 "providerUserInfo":[{"providerId":"password","rawId":"ann@example.com","federatedId":"ann@example.com"},
                                     {"providerId":"google.com","rawId":"123","federatedId":"https://accounts.google.com/123"}],
                 "createdAt":"1700000000000","lastLoginAt":"1700000500000","validSince":"1700000000"}]}
                """#)
        ])
        let user = try await Fixtures.provider(transport).lookup(Fixtures.idToken())
        #expect(
            await transport.snapshots == [
                """
                POST \(base)/accounts:lookup?key=test-key
                content-type: application/json

                {"idToken":"CALLER.ID.TOKEN"}
                """
            ])
        #expect(
            user
                == User(
                    uid: "uid-1", isAnonymous: false, email: "ann@example.com", emailVerified: true, displayName: "Ann",
                    providers: ["password", "google.com"],
                    createdAt: Date(timeIntervalSince1970: 1_700_000_000),
                    lastSignInAt: Date(timeIntervalSince1970: 1_700_000_500)
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
        #expect(
            await transport.snapshots == [
                """
                POST \(base)/accounts:delete?key=test-key
                content-type: application/json

                {"idToken":"CALLER.ID.TOKEN"}
                """
            ])
    }

    @Test("other sessions cannot be ended from a client: operation-not-allowed naming what to deploy; nothing is sent")
    func revokeSessionsRefused() async throws {
        let transport = ScriptedTransport([])
        for scope in [SessionRevocationScope.others, .all] {
            let refusal = await #expect(throws: RemoteAuthError.self) {
                try await Fixtures.provider(transport).revokeSessions(Fixtures.idToken(), scope: scope)
            }
            let error = try #require(refusal?.authError)
            #expect(error.reason == .operationNotAllowed)
            #expect(error.message.contains("revokeRefreshTokens") && error.message.contains("docs/providers.md"))
        }
        #expect(await transport.requests.isEmpty)
    }

    @Test("profile update: set, clear, and tokens only when issued")
    func updateProfile() async throws {
        let transport = ScriptedTransport([
            .json(200, #"{"kind":"identitytoolkit#SetAccountInfoResponse","localId":"uid-1","displayName":"Ann"}"#),
            .json(
                200, #"{"localId":"uid-1","idToken":"\#(Fixtures.passwordJWT)","refreshToken":"r2","expiresIn":"3600"}"#
            ),
        ])
        let provider = Fixtures.provider(transport)
        #expect(try await provider.updateProfile(Fixtures.idToken(), displayName: "Ann") == nil)
        let grant = try await provider.updateProfile(Fixtures.idToken(), displayName: nil)
        #expect(grant?.uid == "uid-1" && grant?.refreshToken == RefreshToken("r2"))
        #expect(
            await transport.snapshots == [
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
        #expect(
            await transport.snapshots == [
                """
                POST \(base)/accounts:update?key=test-key
                content-type: application/json

                {"deleteProvider":["password","google.com"],"idToken":"CALLER.ID.TOKEN","returnSecureToken":true}
                """
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
        _ = try? await provider.signIn(
            federated: FederatedCredential(providerId: "google.com", idToken: "{}", accessToken: nil), linkingTo: token)
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
