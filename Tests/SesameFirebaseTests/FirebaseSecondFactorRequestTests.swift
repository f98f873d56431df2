import Foundation
import SesameCore
import SesameFirebase
import SesameHTTP
import SesameTesting
import Testing

/// Request shapes of Identity Platform's TOTP second factors and of the account-security calls
/// (docs/providers.md, "Firebase"), and how each answer is read.
@Suite("Firebase auth provider: second factors and account security")
struct FirebaseSecondFactorRequestTests {
    typealias Reply = ScriptedTransport.Reply
    let v1 = "https://identitytoolkit.googleapis.com/v1"
    let v2 = "https://identitytoolkit.googleapis.com/v2"

    /// The answer of a sign-in whose account has a TOTP factor.
    static let pendingAnswer = Reply.json(
        200,
        #"{"localId":"uid-9","email":"ann@example.com","mfaPendingCredential":"PENDING-CRED","mfaInfo":[{"mfaEnrollmentId":"f1","displayName":"Phone","enrolledAt":"2026-11-20T10:00:00.000Z","totpInfo":{}}]}"#
    )

    /// An unsigned JWT with `exp - iat` = `lifetime` and an email.
    static func jwt(uid: String = "uid-9", lifetime: Int = 1800) -> String {
        let payload =
            #"{"user_id":"\#(uid)","sub":"\#(uid)","email":"ann@example.com","iat":1800000000,"exp":\#(1_800_000_000 + lifetime),"firebase":{"sign_in_provider":"password","sign_in_second_factor":"totp"}}"#
        return "\(TestJWT.encode(#"{"alg":"none","typ":"JWT"}"#)).\(TestJWT.encode(payload))."
    }

    func expectSecondFactor(
        _ body: () async throws(RemoteAuthError) -> Void, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        do {
            try await body()
            Issue.record("expected secondFactorRequired", sourceLocation: sourceLocation)
        } catch let RemoteAuthError.secondFactorRequired(pending) {
            #expect(pending.uid == "uid-9" && pending.email == "ann@example.com", sourceLocation: sourceLocation)
            #expect(pending.credential == "PENDING-CRED" && pending.expiresAt == nil, sourceLocation: sourceLocation)
            #expect(
                pending.factors == [
                    SecondFactor(
                        factorId: "f1", type: "totp", displayName: "Phone",
                        enrolledAt: RFC3339.parse("2026-11-20T10:00:00.000Z"))
                ], sourceLocation: sourceLocation)
            #expect(!"\(pending)".contains("PENDING-CRED"), sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test("every sign-in that can answer mfaPendingCredential throws secondFactorRequired with the factors")
    func everySignInThrowsSecondFactorRequired() async throws {
        let transport = ScriptedTransport(Array(repeating: Self.pendingAnswer, count: 5))
        let provider = Fixtures.provider(transport)
        await expectSecondFactor { () async throws(RemoteAuthError) in
            _ = try await provider.signIn(email: "ann@example.com", password: "pw123456")
        }
        await expectSecondFactor { () async throws(RemoteAuthError) in
            _ = try await provider.signIn(
                email: "ann@example.com", proof: .link(Fixtures.signInLink("c")), linkingTo: nil)
        }
        await expectSecondFactor { () async throws(RemoteAuthError) in
            _ = try await provider.signIn(
                federated: FederatedCredential(providerId: "google.com", idToken: "{}", accessToken: nil),
                linkingTo: nil)
        }
        await expectSecondFactor { () async throws(RemoteAuthError) in
            let start = BrowserSignInStart(
                providerId: "google.com", redirectUri: "http://127.0.0.1:1/cb", authorizationUrl: "https://idp/auth",
                state: "s", backendSecret: "session-1")
            _ = try await provider.completeBrowserSignIn(
                start, callbackUrl: "http://127.0.0.1:1/cb?code=c&state=s", linkingTo: nil)
        }
        await expectSecondFactor { () async throws(RemoteAuthError) in
            _ = try await provider.signIn(customToken: "custom-token")
        }
        #expect(await transport.requests.count == 5)
    }

    @Test("completeSecondFactor: mfaSignIn:finalize on v2, the uid and lifetime read from the token")
    func completeSecondFactor() async throws {
        let token = Self.jwt()
        let transport = ScriptedTransport([.json(200, #"{"idToken":"\#(token)","refreshToken":"refresh-9"}"#)])
        let pending = PendingSecondFactor(uid: nil, email: nil, factors: [], credential: "PENDING-CRED")
        let result = try await Fixtures.provider(transport).completeSecondFactor(
            pending, factorId: "f1", code: "123456")
        #expect(
            await transport.snapshots == [
                """
                POST \(v2)/accounts/mfaSignIn:finalize?key=test-key
                content-type: application/json

                {"mfaEnrollmentId":"f1","mfaPendingCredential":"PENDING-CRED","totpVerificationInfo":{"verificationCode":"123456"}}
                """
            ])
        #expect(result.uid == "uid-9" && result.refreshToken.rawValue == "refresh-9" && !result.isNewUser)
        #expect(result.idToken.expiresAt == Fixtures.now.addingTimeInterval(1800))
    }

    @Test("TOTP enrolment: start builds the otpauth URI; finalize and withdraw return the new tokens")
    func enrolment() async throws {
        let token = Self.jwt()
        let transport = ScriptedTransport([
            .json(
                200,
                #"{"totpSessionInfo":{"sharedSecretKey":"JBSWY3DPEHPK3PXP","verificationCodeLength":6,"hashingAlgorithm":"SHA1","periodSec":30,"sessionInfo":"SESSION-1","finalizeEnrollmentTime":"2027-01-15T08:10:00Z"}}"#
            ),
            .json(200, #"{"idToken":"\#(token)","refreshToken":"refresh-2"}"#),
            .json(200, #"{"idToken":"\#(token)","refreshToken":"refresh-3"}"#),
        ])
        let provider = Fixtures.provider(transport)
        let caller = Fixtures.idToken(token)
        let start = try await provider.startTotpEnrollment(caller, displayName: "Phone")
        #expect(start.secret == "JBSWY3DPEHPK3PXP" && start.handle == "SESSION-1")
        #expect(
            start.otpauthUri
                == "otpauth://totp/demo-project:ann%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=demo-project&algorithm=SHA1&digits=6&period=30"
        )
        #expect(start.expiresAt == RFC3339.parse("2027-01-15T08:10:00Z"))
        let enrolled = try await provider.finishTotpEnrollment(caller, start, code: "654321", displayName: "Phone")
        let withdrawn = try await provider.unenrollFactor(caller, factorId: "f1")
        #expect(enrolled?.refreshToken.rawValue == "refresh-2" && withdrawn?.refreshToken.rawValue == "refresh-3")
        #expect(
            await transport.snapshots == [
                """
                POST \(v2)/accounts/mfaEnrollment:start?key=test-key
                content-type: application/json

                {"idToken":"\(token)","totpEnrollmentInfo":{}}
                """,
                """
                POST \(v2)/accounts/mfaEnrollment:finalize?key=test-key
                content-type: application/json

                {"displayName":"Phone","idToken":"\(token)","totpVerificationInfo":{"sessionInfo":"SESSION-1","verificationCode":"654321"}}
                """,
                """
                POST \(v2)/accounts/mfaEnrollment:withdraw?key=test-key
                content-type: application/json

                {"idToken":"\(token)","mfaEnrollmentId":"f1"}
                """,
            ])
    }

    @Test("changePassword returns the tokens accounts:update issues; requestEmailChange sends VERIFY_AND_CHANGE_EMAIL")
    func passwordAndEmail() async throws {
        let token = Self.jwt()
        let transport = ScriptedTransport([
            .json(
                200,
                #"{"localId":"uid-9","email":"ann@example.com","idToken":"\#(token)","refreshToken":"refresh-4","expiresIn":"3600"}"#
            ),
            .json(200, #"{"kind":"identitytoolkit#GetOobConfirmationCodeResponse","email":"ann@example.com"}"#),
            .error(400, "EMAIL_EXISTS"),
        ])
        let provider = Fixtures.provider(transport)
        let grant = try await provider.changePassword(
            Fixtures.idToken(), newPassword: "n3w-secret", reauthenticationCode: nil)
        #expect(grant?.uid == "uid-9" && grant?.refreshToken.rawValue == "refresh-4")
        try await provider.requestEmailChange(Fixtures.idToken(), newEmail: "new@example.com")
        await #expect(throws: RemoteAuthError.rejected(AuthError(.emailAlreadyInUse, email: "taken@example.com"))) {
            try await provider.requestEmailChange(Fixtures.idToken(), newEmail: "taken@example.com")
        }
        #expect(
            await transport.snapshots.prefix(2) == [
                """
                POST \(v1)/accounts:update?key=test-key
                content-type: application/json

                {"idToken":"CALLER.ID.TOKEN","password":"n3w-secret","returnSecureToken":true}
                """,
                """
                POST \(v1)/accounts:sendOobCode?key=test-key
                content-type: application/json

                {"idToken":"CALLER.ID.TOKEN","newEmail":"new@example.com","requestType":"VERIFY_AND_CHANGE_EMAIL"}
                """,
            ])
    }

    @Test("confirmPasswordReset from a link or a bare code; a sign-in link is refused without a call")
    func passwordReset() async throws {
        let transport = ScriptedTransport([
            .json(
                200,
                #"{"kind":"identitytoolkit#ResetPasswordResponse","email":"ann@example.com","requestType":"PASSWORD_RESET"}"#
            ),
            .json(200, #"{"kind":"identitytoolkit#ResetPasswordResponse","requestType":"PASSWORD_RESET"}"#),
        ])
        let provider = Fixtures.provider(transport)
        let link =
            "https://demo-project.firebaseapp.com/__/auth/action?mode=resetPassword&oobCode=RESET-1&apiKey=test-key"
        #expect(
            try await provider.confirmPasswordReset(.link(link), email: nil, newPassword: "n3w-secret")
                == "ann@example.com")
        #expect(
            try await provider.confirmPasswordReset(
                .code("RESET-2"), email: "bob@example.com", newPassword: "n3w-secret")
                == "bob@example.com")
        await #expect(throws: RemoteAuthError.self) {
            _ = try await provider.confirmPasswordReset(
                .link(Fixtures.signInLink("c")), email: nil, newPassword: "n3w-secret")
        }
        #expect(
            await transport.snapshots == [
                """
                POST \(v1)/accounts:resetPassword?key=test-key
                content-type: application/json

                {"newPassword":"n3w-secret","oobCode":"RESET-1"}
                """,
                """
                POST \(v1)/accounts:resetPassword?key=test-key
                content-type: application/json

                {"newPassword":"n3w-secret","oobCode":"RESET-2"}
                """,
            ])
    }

    @Test("lookup fills User.factors from mfaInfo (TOTP and other kinds)")
    func lookupFactors() async throws {
        let transport = ScriptedTransport([
            .json(
                200,
                #"{"users":[{"localId":"uid-9","email":"ann@example.com","mfaInfo":[{"mfaEnrollmentId":"f1","enrolledAt":"2026-11-20T10:00:00Z","totpInfo":{}},{"mfaEnrollmentId":"f2","displayName":"Work","phoneInfo":"+1*******00"}]}]}"#
            )
        ])
        let user = try await Fixtures.provider(transport).lookup(Fixtures.idToken())
        #expect(
            user.factors == [
                SecondFactor(factorId: "f1", type: "totp", enrolledAt: RFC3339.parse("2026-11-20T10:00:00Z")),
                SecondFactor(factorId: "f2", type: "phone", displayName: "Work"),
            ])
    }

    @Test("Firebase mails no reauthentication codes")
    func noReauthenticationCodes() async throws {
        let transport = ScriptedTransport([])
        await #expect(throws: RemoteAuthError.self) {
            try await Fixtures.provider(transport).sendReauthenticationCode(Fixtures.idToken())
        }
        #expect(await transport.requests.isEmpty)
    }
}
