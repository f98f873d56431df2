import Foundation
import SesameClient
import SesameLocalAPI
import SesameTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Email links from a guest and from accounts (issue 5), `sesamed` against `sesame-emulator`
/// (Firebase) as processes: linked in place for a new address, merged into an existing account.
@Suite("upgrade paths end to end: email links", .serialized, .timeLimit(.minutes(3)))
struct UpgradeEmailLinkTests {
    @Test("email link, new email: completed from sesamectl without --email, linked in place; the address is forgotten")
    func emailLinkLinks() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let guest = try #require(try await client.state().user?.uid)
            #expect(try await client.sendSignInLink(email: "cat@example.com") == "cat@example.com")
            let link = try #require(try await emulator.oobLink(email: "cat@example.com"))
            let result = try await daemon.ctl(["complete-link", link, "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            let json = try JSONValue.parse(Array(result.stdout.utf8))
            #expect(json["merge"] == .null)
            #expect(json["state"]?["user"]?["uid"]?.stringValue == guest)
            #expect(json["state"]?["user"]?["isAnonymous"]?.boolValue == false)
            #expect(json["state"]?["user"]?["email"]?.stringValue == "cat@example.com")
            try await watch.waitFor("linked")
            let state = try await client.state()
            #expect(state.user?.uid == guest)
            #expect(state.user?.providers == ["password"])

            // The address was forgotten: a second link to it needs the email again.
            try await daemon.stop()
            try await daemon.restart(waitFor: "authenticated")
            // From the guest a sign-out makes (sesamectl signs in over no account).
            #expect(try await daemon.ctl(["sign-out"]).status == 0)
            let again = try await daemon.ctl(["complete-link", link])
            #expect(again.status == 1)
            #expect(again.stderr.contains("--email"), "\(again.stderr)")
        }
    }

    @Test("email link, existing account, the link wrapped in ?link=: merged; the remembered address survives a restart")
    func emailLinkMerges() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let account = try await emulator.createAccount(email: "dan@example.com", password: "secret12")
            let guest = try #require(try await client.state().user?.uid)
            let sent = try await daemon.ctl(["send-link", "dan@example.com"])
            #expect(sent.status == 0, "\(sent.stderr)")
            // The remembered address is in the keyring: it survives a SIGKILL.
            try await daemon.kill()
            try await daemon.restart()
            let client = daemon.client()
            defer { Task { await client.close() } }
            let link = try #require(try await emulator.oobLink(email: "dan@example.com"))
            var wrapper = URLComponents(string: "https://example.page.link/")!
            wrapper.queryItems = [URLQueryItem(name: "link", value: link)]
            let wrapped = try #require(wrapper.url?.absoluteString)
            let (state, merge) = try await client.completeSignInLink(link: wrapped)
            let recorded = try #require(merge)
            #expect(recorded.fromUid == guest)
            #expect(recorded.toUid == account)
            #expect(state.user?.uid == account)
            #expect(try await emulator.accountExists(guest))
        }
    }

    @Test("email link: bogus, reused (the session is unchanged), another address without --email")
    func emailLinkErrors() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let guest = try #require(try await client.state().user?.uid)
            try await expectDaemonError("invalid-action-code", code: 1000) {
                _ = try await client.completeSignInLink(link: "https://example.com/not-a-link")
            }
            _ = try await client.sendSignInLink(email: "eve@example.com")
            let link = try #require(try await emulator.oobLink(email: "eve@example.com"))
            // A code that does not exist, in a well-formed link.
            let forged = link.replacingOccurrences(of: "oobCode=", with: "oobCode=x")
            try await expectDaemonError("invalid-action-code", code: 1000) {
                _ = try await client.completeSignInLink(link: forged)
            }
            // A link for another address, with nothing remembered for it.
            _ = try await emulator.request(
                "POST", "/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=k",
                json: ["requestType": "EMAIL_SIGNIN", "email": "other@example.com", "canHandleCodeInApp": true])
            let otherLink = try #require(try await emulator.oobLink(email: "other@example.com"))
            // Nothing remembered at all: forget eve's address by completing her link first.
            let (linked, _) = try await client.completeSignInLink(link: link)
            #expect(linked.user?.uid == guest)
            try await expectDaemonError("missing-email", code: 1000) {
                _ = try await client.completeSignInLink(link: otherLink)
            }
            // The consumed-code rule: the same link again (from a guest: over an account the
            // sign-in rule answers first) fails and changes nothing.
            _ = try await client.signOut()
            let before = try await client.state()
            try await expectDaemonError("invalid-action-code", code: 1000) {
                _ = try await client.completeSignInLink(link: link, email: "eve@example.com")
            }
            let after = try await client.state()
            #expect(after.user == before.user)
            #expect(after.status == before.status)
        }
    }

    @Test("a reused link from a guest: the guest stays, nothing is linked or merged")
    func reusedLinkFromGuest() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            _ = try await client.sendSignInLink(email: "fay@example.com")
            let link = try #require(try await emulator.oobLink(email: "fay@example.com"))
            // Someone else spends the code first (another device).
            let code = try #require(URLComponents(string: link)?.queryItems?.first { $0.name == "oobCode" }?.value)
            let (status, _) = try await emulator.request(
                "POST", "/identitytoolkit.googleapis.com/v1/accounts:signInWithEmailLink?key=k",
                json: ["email": "fay@example.com", "oobCode": .string(code)])
            #expect(status == 200)
            let before = try await client.state()
            try await expectDaemonError("invalid-action-code", code: 1000) {
                _ = try await client.completeSignInLink(link: link)
            }
            let after = try await client.state()
            #expect(after.status == .anonymous)
            #expect(after.user?.uid == before.user?.uid)
            #expect(after.pendingMerges.isEmpty)
        }
    }

    @Test("linkCredential(emailLink) from a guest: linked in place with the remembered address")
    func linkEmailLink() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let guest = try #require(try await client.state().user?.uid)
            _ = try await client.sendSignInLink(email: "ola@example.com")
            let link = try #require(try await emulator.oobLink(email: "ola@example.com"))
            let state = try await client.linkCredential(.emailLink(email: nil, link: link))
            #expect(state.user?.uid == guest)
            #expect(state.user?.email == "ola@example.com")
            #expect(state.user?.providers == ["password"])
            try await watch.waitFor("linked")
        }
    }

    @Test(
        "linkCredential(emailLink) onto a taken email: email-already-in-use without spending the code; the link then signs in"
    )
    func linkEmailLinkTaken() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let account = try await emulator.createAccount(email: "tak@example.com", password: "secret12")
            let guest = try #require(try await client.state().user?.uid)
            _ = try await client.sendSignInLink(email: "tak@example.com")
            let link = try #require(try await emulator.oobLink(email: "tak@example.com"))
            let error = try await expectDaemonError("email-already-in-use", code: 1000) {
                _ = try await client.linkCredential(.emailLink(email: nil, link: link))
            }
            #expect(error?.email == "tak@example.com")
            #expect(error?.providerId == "password")
            #expect(try await client.state().user?.uid == guest)
            #expect((try await emulator.calls()["accounts:signInWithEmailLink"] ?? 0) == 0)
            // The code is still good: the link signs in to the account, merging the guest.
            let (state, merge) = try await client.completeSignInLink(link: link)
            #expect(state.user?.uid == account)
            #expect(merge?.fromUid == guest)
        }
    }

    @Test("linkCredential(emailLink) for the account's own IdP email adds password")
    func linkEmailLinkOwnEmail() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let guest = try #require(try await client.state().user?.uid)
            _ = try await client.signInWithIdp(
                providerId: "google.com", idToken: claims(sub: "g-own", email: "own@example.com", verified: true))
            _ = try await client.sendSignInLink(email: "own@example.com")
            let link = try #require(try await emulator.oobLink(email: "own@example.com"))
            let state = try await client.linkCredential(.emailLink(email: nil, link: link))
            #expect(state.user?.uid == guest)
            #expect(Set(state.user?.providers ?? []) == ["google.com", "password"])
        }
    }

    @Test(
        "email enumeration protection (sign-in methods hidden): a link from a guest signs in and merges; providers empty"
    )
    func hiddenSignInMethods() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let (status, _) = try await emulator.request(
                "PATCH", "/emulator/v1/projects/\(EmulatorProcess.project)/config",
                json: ["emailPrivacyConfig": ["enableImprovedEmailPrivacy": true]])
            #expect(status == 200)
            _ = try await emulator.createAccount(email: "hid@example.com", password: "secret12")
            let guest = try #require(try await client.state().user?.uid)
            // Whether the email has an account cannot be known: the daemon signs in (the link then
            // creates the account) and merges, rather than spend the code on a link that may fail.
            _ = try await client.sendSignInLink(email: "new-hidden@example.com")
            let link = try #require(try await emulator.oobLink(email: "new-hidden@example.com"))
            let (state, merge) = try await client.completeSignInLink(link: link)
            #expect(state.user?.email == "new-hidden@example.com")
            #expect(merge?.fromUid == guest)
            #expect(try await emulator.accountExists(guest))

            _ = try await client.signOut()
            let error = try await expectDaemonError("account-exists-with-different-credential", code: 1000) {
                _ = try await client.signInWithIdp(
                    providerId: "google.com", idToken: claims(sub: "g-hid", email: "hid@example.com", verified: false))
            }
            #expect(error?.email == "hid@example.com")
            #expect(error?.providers == [])
        }
    }
}
