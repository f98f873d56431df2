import Foundation
import SesameLocalAPI
import SesameTesting
import Testing

/// The built `sesamectl` against the fake daemon: what goes on standard input (a password,
/// then a code) reaches the protocol's calls, and what the person reads comes out.
@Suite("sesamectl account security, the built binary", .timeLimit(.minutes(1)))
struct SesameCtlAccountProcessTests {
    static func ctl(_ arguments: [String], daemon: FakeDaemon, stdin: String) async throws -> CommandResult {
        try await runCommand(
            BuiltBinaries.path("sesamectl"), arguments + ["--socket", daemon.path], stdin: stdin)
    }

    /// A daemon whose `signIn` needs a second factor that only `123456` answers.
    static func secondFactorDaemon() async throws -> FakeDaemon {
        let daemon = FakeDaemon()
        try await daemon.start()
        await daemon.script("signIn") { _ in .error(SesameClientAccountSecurityTests.secondFactorRequired) }
        await daemon.configure {
            $0.status = "authenticated"
            $0.uid = "ann"
        }
        let state = await daemon.stateJSON
        // Before the sign-in a guest, as sesamectl refuses to sign in over an account.
        await daemon.configure {
            $0.status = "anonymous"
            $0.uid = "guest-1"
        }
        await daemon.script("completeSecondFactor") { request in
            guard request.params.values["code"] == "123456" else {
                return .error(
                    LocalAPIError(code: .authentication, reason: "invalid-verification-code", message: "Not that code.")
                )
            }
            return .result(["state": state, "merge": .null])
        }
        return daemon
    }

    @Test func aPasswordSignInTakesThePasswordThenTheCodeFromStandardInput() async throws {
        let daemon = try await Self.secondFactorDaemon()
        let result = try await Self.ctl(
            ["sign-in", "ann@example.com", "--password-stdin", "--code-stdin"], daemon: daemon,
            stdin: "correct horse\n123 456\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("signed in as ") && result.stdout.hasSuffix("(uid ann)\n"))
        #expect(result.stderr.contains("this account has a second factor (Phone)"))
        #expect(await daemon.requests("signIn").first?.params.values["password"] == "correct horse")
        #expect(
            await daemon.requests("completeSecondFactor").map(\.params.values) == [
                ["challengeId": "ch-1", "code": "123456"]
            ])
        #expect(!result.stderr.contains("correct horse") && !result.stdout.contains("123456"))
        await daemon.stop()
    }

    @Test func aWrongCodeFromStandardInputFailsWithStatusOneAndNothingElseIsSent() async throws {
        let daemon = try await Self.secondFactorDaemon()
        let result = try await Self.ctl(
            ["sign-in", "ann@example.com", "--password-stdin", "--code-stdin"], daemon: daemon,
            stdin: "correct horse\n000000\n")
        #expect(result.status == 1)
        // One try from standard input: no "either" (issue 31, item 9).
        #expect(result.stderr.contains("that code is not right: nothing changed; sign in again"))
        #expect(!result.stderr.contains("either"))
        #expect(await daemon.requests("completeSecondFactor").count == 1)
        await daemon.stop()
    }

    @Test func mfaEnrollShowsTheKeyAndConfirmsWithTheCode() async throws {
        let daemon = FakeDaemon()
        try await daemon.start()
        await daemon.configure { $0.status = "authenticated" }
        let state = await daemon.stateJSON
        await daemon.script("enrollTotp") { _ in
            .result([
                "enrollmentId": "e-1", "secret": "JBSWY3DPEHPK3PXP",
                "otpauthUri": "otpauth://totp/Sesame:ann?secret=JBSWY3DPEHPK3PXP&issuer=Sesame",
                "expiresAt": "2026-11-21T10:10:00Z",
            ])
        }
        await daemon.script("confirmTotp") { _ in .result(state) }
        let result = try await Self.ctl(
            ["mfa", "enroll", "--name", "Phone", "--no-qr", "--code-stdin"], daemon: daemon, stdin: "654321\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("    JBSW Y3DP EHPK 3PXP\n"))
        #expect(result.stdout.contains("second factor enrolled"))
        #expect(await daemon.requests("enrollTotp").first?.params.values == ["displayName": "Phone"])
        #expect(
            await daemon.requests("confirmTotp").first?.params.values == ["enrollmentId": "e-1", "code": "654321"])
        await daemon.stop()
    }

    @Test func changePasswordAndResetPasswordReadTheNewPasswordFromStandardInput() async throws {
        let daemon = FakeDaemon()
        try await daemon.start()
        await daemon.script("changePassword") { _ in
            .error(LocalAPIError(code: .authentication, reason: "requires-recent-login", message: "Too old."))
        }
        await daemon.script("confirmPasswordReset") { _ in .result(["email": "ann@example.com"]) }
        let refused = try await Self.ctl(["change-password", "--password-stdin"], daemon: daemon, stdin: "n3w pw\n")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("`sesamectl reauth`"))
        #expect(await daemon.requests("changePassword").first?.params.values == ["newPassword": "n3w pw"])
        let reset = try await Self.ctl(
            ["reset-password", "--complete", "123456", "--email", "ann@example.com", "--password-stdin"],
            daemon: daemon,
            stdin: "n3w pw\n")
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(reset.stdout.contains("password of ann@example.com changed"))
        #expect(
            await daemon.requests("confirmPasswordReset").first?.params.values == [
                "code": "123456", "email": "ann@example.com", "newPassword": "n3w pw",
            ])
        await daemon.stop()
    }
}
