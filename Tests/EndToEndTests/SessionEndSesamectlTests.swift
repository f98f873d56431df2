import Foundation
import SesameClient
import SesameLocalAPI
import SesameTesting
import Testing

/// Issue 31, end to end through `sesamectl` and the emulator: sign-ins never replace an
/// account, and a session the backend ended for a new password or address says so.
@Suite("first hour, issue 31: sign-in rule and why a session ended", .serialized, .timeLimit(.minutes(3)))
struct SessionEndSesamectlTests {
    @Test(
        "reset-password --complete for the account signed in here: its session ends at once (credentials-changed), the new password signs in",
        arguments: TestBackend.allCases)
    func resetOfTheSignedInAccount(backend: TestBackend) async throws {
        try await withDaemon(backend: backend) { emulator, daemon, client, watch in
            let email = "reset-here@example.com"
            let up = try await daemon.ctl(["sign-up", email, "--password-stdin"], stdin: "secret12\n")
            #expect(up.status == 0, "\(up.stderr)")
            let uid = try #require(try await daemon.uid())
            #expect(try await daemon.ctl(["reset-password", email]).status == 0)
            let link = try await emulator.passwordResetProof(email)
            let done = try await daemon.ctl(
                ["reset-password", "--complete", link, "--password-stdin"], stdin: "reset-secret-56\n")
            #expect(done.status == 0, "\(done.stderr)")
            #expect(done.stdout.contains("sign in"), "\(done.stdout)")
            try await watch.waitFor("credentials-changed")
            #expect(try await client.state().user?.uid != uid)
            let token = try await daemon.ctl(["token"])
            #expect(token.status == 0, "\(token.stderr)")
            #expect(!token.stderr.contains("deleted, disabled"))
            let again = try await daemon.ctl(["sign-in", email, "--password-stdin"], stdin: "reset-secret-56\n")
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stdout.contains("signed in as \(email) (uid \(uid))"), "\(again.stdout)")
        }
    }

    @Test(
        "Firebase: after the change link is opened, status checks the session: the old address is gone and the new one is named; signing in with it works"
    )
    func firebaseEmailChangeConfirmed() async throws {
        try await withDaemon(backend: .firebase) { emulator, daemon, client, watch in
            let (old, new) = ("moving@example.com", "moved@example.com")
            #expect(try await daemon.ctl(["sign-up", old, "--password-stdin"], stdin: "secret12\n").status == 0)
            let uid = try #require(try await daemon.uid())
            let change = try await daemon.ctl(["change-email", new])
            #expect(change.status == 0, "\(change.stderr)")
            let pending = try await daemon.ctl(["status"])
            #expect(pending.stdout.contains("(not yet confirmed: open the link mailed to \(new))"), "\(pending.stdout)")
            try await emulator.confirmEmailChange(from: old, to: new)
            let status = try await daemon.ctl(["status"])
            #expect(status.status == 0, "\(status.stderr)")
            #expect(!status.stdout.contains(old), "\(status.stdout)")
            #expect(status.stderr.contains("changed to \(new)"), "\(status.stderr)")
            #expect(status.stderr.contains("`sesamectl sign-in \(new)`"), "\(status.stderr)")
            #expect(!status.stderr.contains("deleted, disabled"), "\(status.stderr)")
            try await watch.waitFor("credentials-changed")
            let again = try await daemon.ctl(["sign-in", new, "--password-stdin"], stdin: "secret12\n")
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stdout.contains("signed in as \(new) (uid \(uid))"), "\(again.stdout)")
            #expect(try await client.state().user?.pendingEmail == nil)
        }
    }

    @Test(
        "every sesamectl sign-in over an account is refused with the same advice; the account stays",
        arguments: TestBackend.allCases)
    func signInsOverAnAccountAreRefused(backend: TestBackend) async throws {
        try await withDaemon(backend: backend) { emulator, daemon, client, _ in
            _ = try await emulator.createAccount(email: "other@example.com", password: "secret12")
            #expect(
                try await daemon.ctl(["sign-up", "here@example.com", "--password-stdin"], stdin: "secret12\n").status
                    == 0)
            let uid = try #require(try await daemon.uid())
            let attempts: [([String], String?)] = [
                (["sign-in", "other@example.com", "--password-stdin"], "secret12\n"),
                (["sign-in", "google", "--device", "--no-qr"], nil),
                (["sign-in", "--custom-token-file", "-"], "{\"uid\":\"kiosk-1\"}\n"),
                (["sign-in-idp", "google.com", "--id-token", emulator.federatedIdToken(sub: "g-other")], nil),
            ]
            for (arguments, stdin) in attempts {
                let result = try await daemon.ctl(arguments, stdin: stdin)
                #expect(result.status == 1, "\(arguments)")
                #expect(result.stderr.contains("run `sesamectl sign-out` first"), "\(arguments): \(result.stderr)")
            }
            #expect(try await daemon.ctl(["send-link", "other@example.com"]).status == 0)
            let link = try #require(try await emulator.signInLink(email: "other@example.com"))
            let completed = try await daemon.ctl(["complete-link", link])
            #expect(completed.status == 1)
            #expect(completed.stderr.contains("run `sesamectl sign-out` first"), "\(completed.stderr)")
            #expect(try await client.state().user?.uid == uid)
        }
    }
}
