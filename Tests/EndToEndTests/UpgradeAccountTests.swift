import Foundation
import SesameClient
import SesameLocalAPI
import SesameTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Password linking, conflicts and bad input, the profile and account deletion (issue 5) on
/// Firebase.
@Suite("upgrade paths end to end: passwords, profile and deletion", .serialized, .timeLimit(.minutes(3)))
struct UpgradeAccountTests {
    @Test("email-already-in-use: createAccount and linkCredential(password) carry the email and say to sign in")
    func emailAlreadyInUse() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            _ = try await emulator.createAccount(email: "lee@example.com", password: "secret12")
            let before = try await client.state()
            let error = try await expectDaemonError("email-already-in-use", code: 1000) {
                _ = try await client.createAccount(email: "lee@example.com", password: "other123")
            }
            #expect(error?.email == "lee@example.com")
            #expect(error?.providerId == "password")
            #expect(error?.message.lowercased().contains("sign in") == true, "\(error?.message ?? "")")
            let linkError = try await expectDaemonError("email-already-in-use", code: 1000) {
                _ = try await client.linkCredential(.password(email: "lee@example.com", password: "other123"))
            }
            #expect(linkError?.email == "lee@example.com")
            #expect(try await client.state().user == before.user)

            let ctl = try await daemon.ctl(["sign-up", "lee@example.com", "--password-stdin"], stdin: "other123\n")
            #expect(ctl.status == 1)
            #expect(ctl.stdout.isEmpty)
            #expect(ctl.stderr.contains("sesamectl sign-in lee@example.com"), "\(ctl.stderr)")
            #expect(ctl.stderr.contains("merged"), "\(ctl.stderr)")
        }
    }

    @Test("wrong password, unknown email, weak password, malformed email: documented errors, the guest stays")
    func badPasswordInput() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            _ = try await emulator.createAccount(email: "max@example.com", password: "secret12")
            let before = try await client.state()
            try await expectDaemonError("invalid-login-credentials", code: 1000) {
                _ = try await client.signIn(identifier: "max@example.com", password: "wrong-one")
            }
            try await expectDaemonError("invalid-login-credentials", code: 1000) {
                _ = try await client.signIn(identifier: "nobody@example.com", password: "secret12")
            }
            try await expectDaemonError("weak-password", code: 1000) {
                _ = try await client.createAccount(email: "new@example.com", password: "123")
            }
            try await expectDaemonError("invalid-email", code: 1000) {
                _ = try await client.createAccount(email: "not-an-email@", password: "secret12")
            }
            try await expectDaemonError("invalid-email", code: 1000) {
                _ = try await client.sendSignInLink(email: "no at sign@")
            }
            let after = try await client.state()
            #expect(after.user == before.user)
            #expect(after.status == .anonymous)
            #expect(after.pendingMerges.isEmpty)
            #expect(try await emulator.accountExists(try #require(before.user?.uid)))

            let ctl = try await daemon.ctl(["sign-in", "max@example.com", "--password-stdin"], stdin: "wrong-one\n")
            #expect(ctl.status == 1)
            #expect(ctl.stderr.contains("wrong email, username or password"), "\(ctl.stderr)")
        }
    }

    @Test(
        "linkCredential(password) on an IdP account: userUpdated, both providers; unlink(password) removes it; no-such-provider"
    )
    func linkPasswordAndUnlink() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let guest = try #require(try await client.state().user?.uid)
            // (The emulator, like Firebase's, refuses a password link for the account's own IdP
            // email: EMAIL_EXISTS. So the IdP identity here has no email.)
            _ = try await client.signInWithIdp(
                providerId: "google.com", idToken: claims(sub: "g-5", email: nil, verified: false))
            try await watch.waitFor("linked")
            let linked = try await client.linkCredential(.password(email: "ned@example.com", password: "secret12"))
            #expect(linked.user?.uid == guest)
            #expect(Set(linked.user?.providers ?? []) == ["google.com", "password"])
            try await watch.waitFor("user-updated")

            try await expectDaemonError("provider-already-linked", code: 1000) {
                _ = try await client.linkCredential(.password(email: "ned@example.com", password: "secret34"))
            }
            let unlinked = try await client.unlink(providerId: "password")
            #expect(unlinked.user?.providers == ["google.com"])
            #expect(unlinked.user?.uid == guest)
            try await expectDaemonError("no-such-provider", code: 1000) {
                _ = try await client.unlink(providerId: "password")
            }
            try await expectDaemonError("no-such-provider", code: 1000) {
                _ = try await client.unlink(providerId: "apple.com")
            }
            // The backend agrees.
            let record = try #require(try await emulator.account(guest))
            let providers = record["providerUserInfo"]?.arrayValue?.compactMap { $0["providerId"]?.stringValue } ?? []
            #expect(providers == ["google.com"])
        }
    }

    @Test("updateProfile sets and clears the display name (userUpdated); the backend agrees")
    func updateProfile() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let uid = try #require(
                try await client.createAccount(email: "pia@example.com", password: "secret12").user?.uid)
            let named = try await client.updateProfile(displayName: "Pia P.")
            #expect(named.user?.displayName == "Pia P.")
            try await watch.waitFor("user-updated")
            #expect(try await emulator.account(uid)?["displayName"]?.stringValue == "Pia P.")
            let cleared = try await client.updateProfile(displayName: nil)
            #expect(cleared.user?.displayName == nil)
            #expect(cleared.user?.uid == uid)
        }
    }

    @Test("deleteAccount from an account: gone at the backend, account-deleted, a new guest")
    func deleteAccountFromAccount() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let uid = try #require(
                try await client.createAccount(email: "quin@example.com", password: "secret12").user?.uid)
            let state = try await client.deleteAccount()
            #expect(state.status == .anonymous)
            let fresh = try #require(state.user?.uid)
            #expect(fresh != uid)
            #expect(try await !emulator.accountExists(uid))
            #expect(try await emulator.accountExists(fresh))
            try await watch.waitFor("account-deleted")
            try await watch.waitFor("anonymous-created")
            try await expectDaemonError("invalid-login-credentials", code: 1000) {
                _ = try await client.signIn(identifier: "quin@example.com", password: "secret12")
            }
        }
    }

    @Test("sendEmailVerification and sendPasswordReset reach the backend; a guest has no email to verify")
    func verificationAndReset() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            try await expectDaemonError("missing-email", code: 1000) {
                try await client.sendEmailVerification()
            }
            _ = try await client.createAccount(email: "ver@example.com", password: "secret12")
            try await client.sendEmailVerification()
            #expect(try await emulator.oobLink(email: "ver@example.com", requestType: "VERIFY_EMAIL") != nil)
            try await client.sendPasswordReset(identifier: "ver@example.com")
            #expect(try await emulator.oobLink(email: "ver@example.com", requestType: "PASSWORD_RESET") != nil)
            let ctl = try await daemon.ctl(["verify-email"])
            #expect(ctl.status == 0, "\(ctl.stderr)")
        }
    }
}
