import ArgumentParser
import Foundation
import SesameClient
import Testing

@testable import sesamectl

/// The new commands of issue 21 (`mfa`, `reauth`, `change-password`, `change-email`,
/// `reset-password --complete`, `--code-stdin` on the sign-ins): their arguments, their output
/// for people and their advice. Passwords and codes are never arguments.
@Suite("sesamectl account security commands")
struct SesameCtlAccountCommandsTests {
    @Test func theCommandTableHasTheNewCommands() {
        let table = SesameCtl.commandLine.commands
        #expect(table["mfa"]?.sorted() == ["enroll", "list", "remove"])
        for name in ["reauth", "change-password", "change-email"] { #expect(table[name] == [], "\(name)") }
        #expect(
            SesameCtl.commandLine.resolve(["mfa", "enrol"])
                == .unknownCommand(word: "enrol", path: ["mfa"], suggestion: "enroll"))
    }

    @Test func mfaEnrollTakesANameNoQRAndCodeStdin() throws {
        let command = try MfaEnrollCommand.parse(["--name", "Phone", "--no-qr", "--code-stdin", "--json"])
        #expect(command.name == "Phone" && command.noQR && command.code.codeStdin && command.options.json)
        let plain = try MfaEnrollCommand.parse([])
        #expect(plain.name == nil && !plain.noQR && !plain.code.codeStdin)
        #expect(throws: (any Error).self) { try MfaEnrollCommand.parse(["--code", "123456"]) }
        #expect(try MfaRemoveCommand.parse(["f-1"]).factorId == "f-1")
        #expect(throws: (any Error).self) { try MfaRemoveCommand.parse([]) }
    }

    @Test func reauthProvesWithThePasswordOrACode() throws {
        #expect(try ReauthCommand.parse([]).mode == .password)
        #expect(try ReauthCommand.parse(["--password-stdin"]).mode == .password)
        #expect(try ReauthCommand.parse(["--send-code"]).mode == .sendCode)
        #expect(try ReauthCommand.parse(["--send-code", "--code-stdin"]).mode == .sendCode)
        #expect(try ReauthCommand.parse(["--code"]).mode == .code)
        #expect(try ReauthCommand.parse(["--code-stdin"]).mode == .code)
        #expect(try ReauthCommand.parse(["--password-stdin", "--code-stdin"]).mode == .password)
        #expect(throws: (any Error).self) { try ReauthCommand.parse(["--password-stdin", "--send-code"]) }
        #expect(throws: (any Error).self) { try ReauthCommand.parse(["--password", "pw"]) }
        #expect(throws: (any Error).self) { try ReauthCommand.parse(["--code", "123456"]) }
    }

    @Test func changePasswordAndChangeEmailTakeNoSecrets() throws {
        #expect(try ChangePasswordCommand.parse(["--password-stdin"]).password.passwordStdin)
        #expect(throws: (any Error).self) { try ChangePasswordCommand.parse(["new-password"]) }
        #expect(try ChangeEmailCommand.parse(["new@example.com"]).newEmail == "new@example.com")
        #expect(throws: (any Error).self) { try ChangeEmailCommand.parse([]) }
    }

    @Test func resetPasswordSendsOrCompletesWithALinkOrACode() throws {
        #expect(try ResetPasswordCommand.parse(["ann@example.com"]).completion() == nil)
        let link = "https://p.firebaseapp.com/__/auth/action?mode=resetPassword&oobCode=c"
        #expect(try ResetPasswordCommand.parse(["--complete", link]).completion() == .link(link))
        #expect(
            try ResetPasswordCommand.parse(["--complete", "123456", "--email", "ann@example.com", "--password-stdin"])
                .completion() == .code("123456", email: "ann@example.com"))
        #expect(throws: (any Error).self) { try ResetPasswordCommand.parse(["--complete", "123456"]) }
        #expect(throws: (any Error).self) { try ResetPasswordCommand.parse(["ann@example.com", "--complete", link]) }
        #expect(throws: (any Error).self) { try ResetPasswordCommand.parse([]) }
        #expect(throws: (any Error).self) { try ResetPasswordCommand.parse(["ann", "--password-stdin"]) }
    }

    @Test func everySignInTakesCodeStdin() throws {
        #expect(try SignInCommand.parse(["ann@example.com", "--password-stdin", "--code-stdin"]).code.codeStdin)
        #expect(try SignInCommand.parse(["google", "--device", "--code-stdin"]).code.codeStdin)
        #expect(try SignInCommand.parse(["--custom-token-file", "/run/t", "--code-stdin"]).code.codeStdin)
        #expect(throws: (any Error).self) { try SignInCommand.parse(["--custom-token-file", "-", "--code-stdin"]) }
        #expect(try CompleteLinkCommand.parse(["https://x/l", "--code-stdin"]).secondFactor.codeStdin)
        #expect(try SignInIdpCommand.parse(["google.com", "--id-token", "t", "--code-stdin"]).code.codeStdin)
    }

    static let phone = SesameSecondFactor(
        factorId: "f-1", type: "totp", displayName: "Phone", enrolledAt: SesameCtlOutputTests.now)

    @Test func statusShowsTheFactorsThePendingEmailAndAnOpenChallenge() {
        let user = SesameUser(
            uid: "ann", isAnonymous: false, email: "ann@example.com", emailVerified: true, providers: ["password"],
            factors: [Self.phone], pendingEmail: "new@example.com")
        var state = SesameCtlOutputTests.state(user: user)
        state.secondFactor = SesameSecondFactorChallenge(
            challengeId: "c", factors: [Self.phone], expiresAt: SesameCtlOutputTests.now)
        let text = StatusRenderer.render(state, now: SesameCtlOutputTests.now)
        #expect(text.contains("second factors:  totp (Phone)"))
        #expect(
            text.contains(
                "pending email:   new@example.com (not yet confirmed: open the link mailed to new@example.com)"))
        #expect(text.contains("second factor:   a sign-in waits for a code from an authenticator app until"))
        let none = SesameUser(uid: "bo", isAnonymous: false, email: "bo@example.com", providers: ["password"])
        #expect(
            StatusRenderer.render(SesameCtlOutputTests.state(user: none), now: SesameCtlOutputTests.now)
                .contains("second factors:  none"))
    }

    @Test func watchSaysWhenASignInWaitsForACode() {
        var state = SesameCtlOutputTests.state(user: SesameUser(uid: "g", isAnonymous: true))
        let plain = NotificationRenderer.line(
            for: SesameNotification(event: .userUpdated(state: state), sequence: 5, jsonLine: nil), json: false)
        #expect(plain == "#5 userUpdated: anonymous guest (uid g)")
        state.secondFactor = SesameSecondFactorChallenge(
            challengeId: "c", factors: [Self.phone], expiresAt: SesameCtlOutputTests.now)
        let waiting = NotificationRenderer.line(
            for: SesameNotification(event: .userUpdated(state: state), sequence: 6, jsonLine: nil), json: false)
        #expect(waiting?.hasPrefix("#6 userUpdated: anonymous guest (uid g); a sign-in waits for a code") == true)
    }

    @Test func mfaListAndEnrollSayWhatThereIs() throws {
        #expect(SecondFactorText.factorLines([]) == "no second factors: add one with `sesamectl mfa enroll`")
        #expect(SecondFactorText.factorLines([Self.phone]).hasPrefix("f-1  totp  Phone  since "))
        let enrollment = SesameTotpEnrollment(
            enrollmentId: "e", secret: "JBSWY3DPEHPK3PXP", otpauthUri: "otpauth://totp/S:ann?secret=JBSWY3DPEHPK3PXP",
            expiresAt: SesameCtlOutputTests.now)
        let lines = SecondFactorText.enrollmentLines(enrollment, qr: true, colours: false)
        #expect(lines.contains("    JBSW Y3DP EHPK 3PXP"))
        let symbol = try #require(QRCode(encoding: enrollment.otpauthUri))
        #expect(
            lines.joined(separator: "\n").contains(
                TerminalQRCode(colours: false).lines(for: symbol).joined(separator: "\n")))
        let plain = SecondFactorText.enrollmentLines(enrollment, qr: false, colours: false)
        #expect(!plain.joined().contains("\u{2588}") && plain.contains("    JBSW Y3DP EHPK 3PXP"))
        let user = SesameUser(uid: "ann", isAnonymous: false, factors: [Self.phone])
        #expect(
            SecondFactorText.enrolled(SesameCtlOutputTests.state(user: user), before: []).hasPrefix(
                "second factor enrolled: \"Phone\" (factor f-1)"))
    }

    @Test func theAdviceNamesTheCommandThatHelps() {
        func message(_ reason: String, _ context: ErrorContext = .general) -> String {
            ErrorReport.make(
                for: .daemon(.init(code: 1000, reason: reason, message: "m")), socketPath: "/s", context: context
            ).message
        }
        #expect(message("requires-recent-login").contains("`sesamectl reauth`"))
        #expect(message("second-factor-required").contains("--code-stdin"))
        #expect(message("invalid-verification-code").contains("authenticator app"))
        #expect(message("operation-not-allowed", .reauth).contains("Firebase"))
        #expect(message("invalid-verification-code", .reauth).contains("`sesamectl reauth --send-code`"))
        #expect(message("expired-action-code", .resetPassword).contains("`sesamectl reset-password EMAIL`"))
        #expect(message("invalid-verification-code", .changePassword).contains("`sesamectl reauth --send-code`"))
        #expect(
            ReauthCommand.text(.init(validUntil: SesameCtlOutputTests.now)).hasPrefix("recent sign-in proven until "))
    }
}
