import Foundation
import SesameCore
import SesameFirebase
import SesameHTTP
import SesameTesting
import Testing

/// How Identity Platform's refusals of the second-factor and account-security calls are
/// classified (docs/providers.md, "Firebase").
@Suite("Firebase auth provider: second-factor and account-security errors")
struct FirebaseSecondFactorErrorTests {
    /// Runs `call` against one scripted error answer and returns what it threw.
    func refusal(
        _ message: String,
        _ call: @Sendable (FirebaseAuthProvider) async throws(RemoteAuthError) -> Void
    ) async -> RemoteAuthError? {
        let provider = Fixtures.provider(ScriptedTransport([.error(400, message)]))
        do {
            try await call(provider)
            return nil
        } catch {
            return error
        }
    }

    /// The reason of a refusal; nil for any other error.
    static func reason(_ error: RemoteAuthError) -> AuthError.Reason? {
        if case .rejected(let rejection) = error { return rejection.reason }
        return nil
    }

    static let pending = PendingSecondFactor(uid: "u", email: nil, factors: [], credential: "PENDING-CRED")
    static let start = TotpEnrollmentStart(secret: "S", otpauthUri: "otpauth://x", expiresAt: nil, handle: "H")

    @Test(
        "mfaSignIn:finalize: a stale pending credential is expired-sign-in-flow, a wrong code invalid-verification-code"
    )
    func signInFinalize() async {
        #expect(
            await refusal("INVALID_MFA_PENDING_CREDENTIAL") { p throws(RemoteAuthError) in
                _ = try await p.completeSecondFactor(Self.pending, factorId: "f1", code: "000000")
            } == .rejected(AuthError(.expiredSignInFlow)))
        #expect(
            await refusal("INVALID_CODE") { p throws(RemoteAuthError) in
                _ = try await p.completeSecondFactor(Self.pending, factorId: "f1", code: "000000")
            } == .rejected(AuthError(.invalidVerificationCode)))
        #expect(
            await refusal("MFA_ENROLLMENT_NOT_FOUND") { p throws(RemoteAuthError) in
                _ = try await p.completeSecondFactor(Self.pending, factorId: "nope", code: "000000")
            }.flatMap(Self.reason) == .noSuchProvider)
    }

    @Test("enrolment on an unverified email says to verify it first; a wrong code is invalid-verification-code")
    func enrolment() async throws {
        let unverified = await refusal(
            "UNVERIFIED_EMAIL : Need to verify email first before enrolling second factors."
        ) { p throws(RemoteAuthError) in
            _ = try await p.startTotpEnrollment(Fixtures.idToken(), displayName: nil)
        }
        guard case .rejected(let error)? = unverified else {
            Issue.record("expected a refusal, got \(String(describing: unverified))")
            return
        }
        #expect(error.reason == .operationNotAllowed)
        #expect(error.message.contains("Verify your email first") && error.message.contains("sesamectl verify-email"))
        #expect(
            await refusal("INVALID_CODE") { p throws(RemoteAuthError) in
                _ = try await p.finishTotpEnrollment(Fixtures.idToken(), Self.start, code: "1", displayName: nil)
            } == .rejected(AuthError(.invalidVerificationCode)))
        #expect(
            await refusal("SESSION_EXPIRED") { p throws(RemoteAuthError) in
                _ = try await p.finishTotpEnrollment(Fixtures.idToken(), Self.start, code: "1", displayName: nil)
            }.flatMap(Self.reason) == .expiredSignInFlow)
    }

    /// The calls Identity Platform refuses after an old sign-in.
    enum SensitiveCall: CaseIterable, Sendable {
        case changePassword, requestEmailChange, unenrollFactor, deleteAccount

        func run(_ p: FirebaseAuthProvider) async throws(RemoteAuthError) {
            let token = Fixtures.idToken()
            switch self {
            case .changePassword:
                _ = try await p.changePassword(token, newPassword: "n3w-secret", reauthenticationCode: nil)
            case .requestEmailChange: try await p.requestEmailChange(token, newEmail: "new@example.com")
            case .unenrollFactor: _ = try await p.unenrollFactor(token, factorId: "f1")
            case .deleteAccount: try await p.deleteAccount(token)
            }
        }
    }

    @Test("sensitive calls with an old sign-in are requires-recent-login", arguments: SensitiveCall.allCases)
    func recentLogin(_ call: SensitiveCall) async {
        #expect(
            await refusal("CREDENTIAL_TOO_OLD_LOGIN_AGAIN") { p throws(RemoteAuthError) in try await call.run(p) }
                == .rejected(AuthError(.requiresRecentLogin)))
    }

    @Test("a weak new password, and used or expired reset codes")
    func passwordErrors() async {
        #expect(
            await refusal("WEAK_PASSWORD : Password should be at least 6 characters") { p throws(RemoteAuthError) in
                _ = try await p.changePassword(Fixtures.idToken(), newPassword: "x", reauthenticationCode: nil)
            } == .rejected(AuthError(.weakPassword)))
        for (code, reason) in [
            ("INVALID_OOB_CODE", AuthError.Reason.invalidActionCode), ("EXPIRED_OOB_CODE", .expiredActionCode),
            ("WEAK_PASSWORD : Password should be at least 6 characters", .weakPassword),
        ] {
            #expect(
                await refusal(code) { p throws(RemoteAuthError) in
                    _ = try await p.confirmPasswordReset(.code("RESET"), email: nil, newPassword: "n3w-secret")
                } == .rejected(AuthError(reason)))
        }
    }
}
