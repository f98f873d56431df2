import Foundation
import SesameLocalAPI
import SesameTesting
import Testing

/// Issue 21's "done when", as a new user does it at a terminal: sign up, enrol an authenticator
/// with `sesamectl mfa enroll` (the code typed after the secret was shown), sign out, sign in
/// with the password and a code, change the password and the email, and reset the password.
@Suite("sesamectl: second factors and account security", .serialized, .timeLimit(.minutes(3)))
struct SesamectlSecondFactorTests {
    typealias Support = SecondFactorTestSupport

    @Test("the first hour with a second factor", arguments: TestBackend.allCases)
    func firstHourWithASecondFactor(backend: TestBackend) async throws {
        try await Support.withDaemon(backend) { emulator, daemon in
            let email = "ctl-mfa@example.com"
            let signUp = try await daemon.ctl(["sign-up", email, "--password-stdin"], stdin: "secret12\n")
            #expect(signUp.status == 0, "\(signUp.stderr)")
            if backend == .firebase {
                #expect(try await daemon.ctl(["verify-email"]).status == 0)
                try await emulator.confirmAddress(email)
                #expect(try await daemon.ctl(["reload"]).status == 0)
            }

            // mfa enroll: the secret is printed first, then the code the app shows is typed.
            let secretBox = SecretBox()
            let enroll = try await daemon.interactiveCtl(["mfa", "enroll", "--name", "Phone", "--json", "--code-stdin"])
            {
                printed in
                guard let line = printed.split(separator: "\n").first,
                    let secret = (try? JSONValue.parse(String(line)))?["secret"]?.stringValue
                else { return nil }
                secretBox.secret = secret
                return try EmulatorProcess.totpCode(secret)
            }
            #expect(enroll.status == 0, "\(enroll.stderr)")
            let secret = try #require(secretBox.secret)
            let list = try await daemon.ctl(["mfa", "list"])
            #expect(list.stdout.contains("Phone") && list.stdout.contains("totp"), "\(list.stdout)")

            // Signed out, then in again: the password, and the code read after it.
            #expect(try await daemon.ctl(["sign-out"]).status == 0)
            let code = try EmulatorProcess.totpCode(secret, skewSeconds: 30)
            let signIn = try await daemon.ctl(
                ["sign-in", email, "--password-stdin", "--code-stdin"], stdin: "secret12\n\(code)\n")
            #expect(signIn.status == 0, "\(signIn.stderr)")
            #expect(try await daemon.stateJSON()["status"] as? String == "authenticated")

            // The password and the address change.
            let change = try await daemon.ctl(["change-password", "--password-stdin"], stdin: "a-newer-secret-34\n")
            #expect(change.status == 0, "\(change.stderr)")
            let moved = try await daemon.ctl(["change-email", "ctl-mfa-new@example.com"])
            #expect(moved.status == 0, "\(moved.stderr)")
            #expect(moved.stdout.contains("ctl-mfa-new@example.com"))
            let status = try await daemon.ctl(["status"])
            #expect(status.stdout.contains("ctl-mfa-new@example.com"), "\(status.stdout)")

            // A reset from the mailed link, with nobody needing to be signed in.
            #expect(try await daemon.ctl(["reset-password", email]).status == 0)
            let link = try await emulator.passwordResetProof(email)
            // Supabase sets the password of an account with a second factor only after it.
            let resetCode = try EmulatorProcess.totpCode(secret)
            let reset = try await daemon.ctl(
                ["reset-password", "--complete", link, "--password-stdin", "--code-stdin"],
                stdin: "reset-secret-56\n\(resetCode)\n")
            #expect(reset.status == 0, "\(reset.stderr)")
            _ = try await daemon.ctl(["sign-out"])
            let next = try EmulatorProcess.totpCode(secret)
            let again = try await daemon.ctl(
                ["sign-in", email, "--password-stdin", "--code-stdin"], stdin: "reset-secret-56\n\(next)\n")
            #expect(again.status == 0, "\(again.stderr)")
            for text in [secret, "secret12", "a-newer-secret-34", "reset-secret-56"] {
                #expect(!daemon.log.contains(text))
            }
        }
    }
}

/// Where the interactive answer keeps the secret it read.
private final class SecretBox: @unchecked Sendable {
    var secret: String?
}
