import Foundation
import SesameCore
import SesameFirebase
import SesameHTTP
import SesameTesting
import Testing

/// The second-factor and account-security calls log endpoint names and codes only: never the
/// TOTP secret, a code, the pending credential, a password or an action code, in a log line or
/// in an error.
@Suite("Firebase adapters: second-factor logging")
struct FirebaseSecondFactorLoggingTests {
    static let secrets = [
        "SECRET-TOTP", "SECRET-SESSION", "SECRET-PENDING", "123456", "SECRET-PASSWORD", "SECRET-OOB", "SECRET.ID.TOKEN",
        "SECRET-REFRESH",
    ]

    @Test("no log line or error carries a secret")
    func noSecrets() async throws {
        let (logger, storage) = RecordingLogHandler.logger()
        let transport = ScriptedTransport([
            .json(
                200,
                #"{"localId":"u","mfaPendingCredential":"SECRET-PENDING","mfaInfo":[{"mfaEnrollmentId":"f1","totpInfo":{}}]}"#
            ),
            .error(400, "INVALID_CODE"),
            .error(400, "INVALID_MFA_PENDING_CREDENTIAL"),
            .json(
                200,
                #"{"totpSessionInfo":{"sharedSecretKey":"SECRET-TOTP","sessionInfo":"SECRET-SESSION","verificationCodeLength":6,"periodSec":30,"hashingAlgorithm":"SHA1"}}"#
            ),
            .error(400, "INVALID_CODE"),
            .json(200, #"{"idToken":"","refreshToken":"SECRET-REFRESH"}"#),
            .error(400, "WEAK_PASSWORD : Password should be at least 6 characters"),
            .error(400, "EXPIRED_OOB_CODE"),
        ])
        let provider = FirebaseAuthProvider(
            configuration: Fixtures.production, transport: transport, logger: logger, now: { Fixtures.now })
        let token = Fixtures.idToken("SECRET.ID.TOKEN")
        var errors: [RemoteAuthError] = []
        func record(_ call: () async throws(RemoteAuthError) -> Void) async {
            do { try await call() } catch { errors.append(error) }
        }
        var pending: PendingSecondFactor?
        await record { () async throws(RemoteAuthError) in
            _ = try await provider.signIn(email: "a@b.c", password: "SECRET-PASSWORD")
        }
        if case .secondFactorRequired(let waiting)? = errors.first { pending = waiting }
        let handle = try #require(pending)
        await record { () async throws(RemoteAuthError) in
            _ = try await provider.completeSecondFactor(handle, factorId: "f1", code: "123456")
        }
        await record { () async throws(RemoteAuthError) in
            _ = try await provider.completeSecondFactor(handle, factorId: "f1", code: "123456")
        }
        let start = try await provider.startTotpEnrollment(token, displayName: nil)
        await record { () async throws(RemoteAuthError) in
            _ = try await provider.finishTotpEnrollment(token, start, code: "123456", displayName: nil)
        }
        await record { () async throws(RemoteAuthError) in
            _ = try await provider.unenrollFactor(token, factorId: "f1")
        }
        await record { () async throws(RemoteAuthError) in
            _ = try await provider.changePassword(token, newPassword: "SECRET-PASSWORD", reauthenticationCode: nil)
        }
        await record { () async throws(RemoteAuthError) in
            _ = try await provider.confirmPasswordReset(.code("SECRET-OOB"), email: nil, newPassword: "SECRET-PASSWORD")
        }
        #expect(errors.count == 7)
        #expect(!"\(start)".contains("SECRET"))
        let lines = storage.all
        #expect(lines.contains { $0.contains("accounts/mfaSignIn:finalize") && $0.contains("INVALID_CODE") })
        for text in lines + errors.map({ "\($0)" }) {
            for secret in Self.secrets {
                #expect(!text.contains(secret), "\(text)")
            }
        }
    }
}
