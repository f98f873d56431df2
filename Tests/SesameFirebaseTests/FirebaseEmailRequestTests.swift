import Foundation
import NIOHTTP1
import SesameCore
import SesameFirebase
import SesameHTTP
import SesameTesting
import Testing

/// Request shapes of the email endpoints (password, sign-in link, methods, reset, verification;
/// docs/firebase.md, "Endpoints"), as snapshots, and how each answer is read.
@Suite("Firebase auth provider: email requests")
struct FirebaseEmailRequestTests {
    let base = "https://identitytoolkit.googleapis.com/v1"

    @Test("email/password sign-up, and linking to the caller")
    func signUpWithPassword() async throws {
        let transport = ScriptedTransport([
            Fixtures.signInAnswer(uid: "new", jwt: Fixtures.passwordJWT),
            .json(200, #"{"users":[{"localId":"anon","displayName":"Ann"}]}"#),
            Fixtures.signInAnswer(uid: "anon", jwt: Fixtures.passwordJWT),
        ])
        let provider = Fixtures.provider(transport)
        let created = try await provider.signUp(email: "ann@example.com", password: "s3cret!", linkingTo: nil)
        let linked = try await provider.signUp(
            email: "ann@example.com", password: "s3cret!", linkingTo: Fixtures.idToken())
        #expect(
            await transport.snapshots == [
                """
                POST \(base)/accounts:signUp?key=test-key
                content-type: application/json

                {"email":"ann@example.com","password":"s3cret!","returnSecureToken":true}
                """,
                """
                POST \(base)/accounts:lookup?key=test-key
                content-type: application/json

                {"idToken":"CALLER.ID.TOKEN"}
                """,
                """
                POST \(base)/accounts:signUp?key=test-key
                content-type: application/json

                {"displayName":"Ann","email":"ann@example.com","idToken":"CALLER.ID.TOKEN","password":"s3cret!","returnSecureToken":true}
                """,
            ])
        #expect(created.isNewUser && created.uid == "new" && created.idToken.signInProvider == "password")
        #expect(!linked.isNewUser && linked.uid == "anon")
    }

    @Test("password sign-in")
    func signInWithPassword() async throws {
        let transport = ScriptedTransport([
            Fixtures.signInAnswer(jwt: Fixtures.passwordJWT, extra: #","registered":true"#)
        ])
        let result = try await Fixtures.provider(transport).signIn(email: "ann@example.com", password: "pw123456")
        #expect(
            await transport.snapshots == [
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
        #expect(
            await transport.snapshots == [
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
        let created = try await provider.signIn(
            email: "ann@example.com", proof: .link(Fixtures.signInLink("CODE-1")), linkingTo: nil)
        let linked = try await provider.signIn(
            email: "ann@example.com", proof: .link(Fixtures.signInLink("CODE-2")), linkingTo: Fixtures.idToken())
        #expect(
            await transport.snapshots == [
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
            _ = try await Fixtures.provider(transport).signIn(
                email: "a@b.c", proof: .link(Fixtures.signInLink("CODE")), linkingTo: nil)
        }
        #expect(await transport.requests.count == 1)
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
        #expect(
            await transport.snapshots.first == """
                POST \(base)/accounts:createAuthUri?key=test-key
                content-type: application/json

                {"continueUri":"http://localhost","identifier":"ann@example.com"}
                """)
    }

    @Test("password reset and email verification")
    func oobCodes() async throws {
        let transport = ScriptedTransport([
            .json(200, #"{"email":"ann@example.com"}"#), .json(200, #"{"email":"ann@example.com"}"#),
        ])
        let provider = Fixtures.provider(transport)
        try await provider.sendPasswordReset(email: "ann@example.com")
        try await provider.sendEmailVerification(Fixtures.idToken())
        #expect(
            await transport.snapshots == [
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
}
