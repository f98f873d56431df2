import Foundation
import SesameClient
import SesameLocalAPI
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The upgrade paths (issue 5), `sesamed` against `sesame-emulator` as processes: a guest
/// becomes an account in place (uid kept, `linked`), or signs in to an existing one (a merge is
/// recorded, `merged`, and the guest survives at the backend until the merge completes).
@Suite("upgrade paths end to end", .serialized, .timeLimit(.minutes(3)))
struct UpgradeTests {
    // MARK: - Email and password

    @Test("createAccount from a guest links in place: uid kept, reason linked, provider password")
    func createAccountLinks() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let guest = try #require(try await client.state().user?.uid)
            let state = try await client.createAccount(email: "Ann@Example.com", password: "secret12")
            #expect(state.status == .authenticated)
            #expect(state.user?.uid == guest)
            #expect(state.user?.isAnonymous == false)
            #expect(state.user?.email == "ann@example.com")
            #expect(state.user?.providers == ["password"])
            #expect(state.pendingMerges.isEmpty)
            try await watch.waitFor("linked")
            #expect(try await emulator.account(guest)?["email"]?.stringValue == "ann@example.com")
        }
    }

    @Test("signIn from a guest into an existing account records a merge; the guest survives until it completes")
    func signInMerges() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let account = try await emulator.createAccount(email: "bob@example.com", password: "secret12")
            let guest = try #require(try await client.state().user?.uid)
            let (state, merge) = try await client.signIn(identifier: "bob@example.com", password: "secret12")
            let recorded = try #require(merge)
            #expect(recorded.fromUid == guest)
            #expect(recorded.toUid == account)
            #expect(state.status == .authenticated)
            #expect(state.user?.uid == account)
            #expect(state.pendingMerges.map(\.mergeId) == [recorded.mergeId])
            try await watch.waitFor("merged")
            #expect(try await emulator.accountExists(guest))
            // The keyring holds the merge: it survives a clean restart.
            try await daemon.stop()
            try await daemon.restart(waitFor: "authenticated")
            let after = try await daemon.client().state()
            #expect(after.pendingMerges.map(\.mergeId) == [recorded.mergeId])
            #expect(try await emulator.accountExists(guest))
        }
    }

    // MARK: - Email link

    @Test("email link, new email: completed from sesamectl without --email, linked in place; the address is forgotten")
    func emailLinkLinks() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let guest = try #require(try await client.state().user?.uid)
            #expect(try await client.sendSignInLink(email: "cat@example.com") == "cat@example.com")
            let link = try #require(try await emulator.oobLink(email: "cat@example.com"))
            let result = try await daemon.ctl(["complete-link", link, "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            let json = try #require(try JSONValue.parse(Array(result.stdout.utf8)))
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
            // The consumed-code rule: the same link again fails and changes nothing.
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

    // MARK: - Federated

    @Test("signInWithIdp from a guest, new identity: linked in place with the IdP's email")
    func idpLinks() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let guest = try #require(try await client.state().user?.uid)
            let (state, merge) = try await client.signInWithIdp(
                providerId: "google.com", idToken: claims(sub: "g-1", email: "gil@example.com", verified: true))
            #expect(merge == nil)
            #expect(state.user?.uid == guest)
            #expect(state.user?.isAnonymous == false)
            #expect(state.user?.providers == ["google.com"])
            #expect(state.user?.email == "gil@example.com")
            try await watch.waitFor("linked")
        }
    }

    @Test("signInWithIdp from a guest, identity of an existing account: merged; guest kept until the merge completes")
    func idpMerges() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            // The identity first belongs to an account made elsewhere.
            let (status, body) = try await emulator.request(
                "POST", "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=k",
                json: ["postBody": .string("providerId=google.com&id_token=" + formEncoded(claims(sub: "g-2", email: "hal@example.com", verified: true))),
                       "requestUri": "http://localhost", "returnSecureToken": true])
            #expect(status == 200, "\(body.jsonString)")
            let account = try #require(body["localId"]?.stringValue)
            let guest = try #require(try await client.state().user?.uid)
            let (state, merge) = try await client.signInWithIdp(
                providerId: "google.com", idToken: claims(sub: "g-2", email: "hal@example.com", verified: true))
            let recorded = try #require(merge)
            #expect(recorded.fromUid == guest)
            #expect(recorded.toUid == account)
            #expect(state.user?.uid == account)
            try await watch.waitFor("merged")
            #expect(try await emulator.accountExists(guest))
        }
    }

    @Test("signInWithIdp with a verified email of a password account: merged into that account")
    func idpVerifiedEmailMerges() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let account = try await emulator.createAccount(email: "ivy@example.com", password: "secret12")
            let guest = try #require(try await client.state().user?.uid)
            let (state, merge) = try await client.signInWithIdp(
                providerId: "google.com", idToken: claims(sub: "g-3", email: "ivy@example.com", verified: true))
            #expect(merge?.fromUid == guest)
            #expect(merge?.toUid == account)
            #expect(state.user?.uid == account)
            #expect(state.user?.providers.contains("google.com") == true)
        }
    }

    @Test("signInWithIdp with an unverified email of a password account: account-exists-with-different-credential")
    func idpNeedsConfirmation() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            _ = try await emulator.createAccount(email: "jo@example.com", password: "secret12")
            let before = try await client.state()
            let error = try await expectDaemonError("account-exists-with-different-credential", code: 1000) {
                _ = try await client.signInWithIdp(
                    providerId: "google.com", idToken: claims(sub: "g-4", email: "jo@example.com", verified: false))
            }
            #expect(error?.email == "jo@example.com")
            #expect(error?.providers == ["password"])
            let after = try await client.state()
            #expect(after.user?.uid == before.user?.uid)
            #expect(after.status == .anonymous)
            #expect(after.pendingMerges.isEmpty)
        }
    }

    @Test("an IdP token without sub: invalid-credential, nothing changes")
    func idpWithoutSub() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let before = try await client.state()
            try await expectDaemonError("invalid-credential", code: 1000) {
                _ = try await client.signInWithIdp(providerId: "google.com", idToken: #"{"email":"kim@example.com"}"#)
            }
            try await expectDaemonError("invalid-credential", code: 1000) {
                _ = try await client.linkCredential(
                    .federated(providerId: "apple.com", idToken: #"{"email":"kim@example.com"}"#, accessToken: nil))
            }
            #expect(try await client.state().user == before.user)
        }
    }

    @Test("linkCredential federated from a guest: linked; then provider-already-linked; another's identity: credential-already-in-use")
    func linkFederated() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let guest = try #require(try await client.state().user?.uid)
            // Someone else's google.com identity.
            _ = try await emulator.request(
                "POST", "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=k",
                json: ["postBody": .string("providerId=google.com&id_token=" + formEncoded(claims(sub: "g-other", email: nil, verified: false))),
                       "requestUri": "http://localhost", "returnSecureToken": true])

            let state = try await client.linkCredential(
                .federated(providerId: "apple.com", idToken: claims(sub: "a-1", email: nil, verified: false), accessToken: nil))
            #expect(state.user?.uid == guest)
            #expect(state.user?.isAnonymous == false)
            #expect(state.user?.providers == ["apple.com"])
            try await watch.waitFor("linked")

            try await expectDaemonError("provider-already-linked", code: 1000) {
                _ = try await client.linkCredential(
                    .federated(providerId: "apple.com", idToken: claims(sub: "a-2", email: nil, verified: false), accessToken: nil))
            }
            // Another account's identity, for a provider this user does not have yet.
            try await expectDaemonError("credential-already-in-use", code: 1000) {
                _ = try await client.linkCredential(
                    .federated(providerId: "google.com", idToken: claims(sub: "g-other", email: nil, verified: false), accessToken: nil))
            }
            #expect(try await client.state().user?.providers == ["apple.com"])
        }
    }

    @Test("credential-already-in-use carries the provider; nothing changes")
    func credentialAlreadyInUse() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            _ = try await emulator.request(
                "POST", "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=k",
                json: ["postBody": .string("providerId=google.com&id_token=" + formEncoded(claims(sub: "g-taken", email: nil, verified: false))),
                       "requestUri": "http://localhost", "returnSecureToken": true])
            let before = try await client.state()
            let error = try await expectDaemonError("credential-already-in-use", code: 1000) {
                _ = try await client.linkCredential(
                    .federated(providerId: "google.com", idToken: claims(sub: "g-taken", email: nil, verified: false), accessToken: nil))
            }
            #expect(error?.providerId == "google.com")
            #expect(try await client.state().user == before.user)
        }
    }

    // MARK: - Password linking, conflicts and bad input

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

    @Test("linkCredential(password) on an IdP account: userUpdated, both providers; unlink(password) removes it; no-such-provider")
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

    @Test("updateProfile sets and clears the display name (userUpdated); the backend agrees")
    func updateProfile() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let uid = try #require(try await client.createAccount(email: "pia@example.com", password: "secret12").user?.uid)
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
            let uid = try #require(try await client.createAccount(email: "quin@example.com", password: "secret12").user?.uid)
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

    @Test("sesamectl: sign-up, sign-out, sign-in (merge message), merges list/complete, sign-in-idp, link, unlink, update-profile, delete-account")
    func sesamectlFlows() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let guest = try #require(try await daemon.uid())
            let up = try await daemon.ctl(["sign-up", "ray@example.com", "--password-stdin"], stdin: "secret12\n")
            #expect(up.status == 0, "\(up.stderr)")
            #expect(up.stdout.contains("signed in as ray@example.com (uid \(guest))"), "\(up.stdout)")

            let out = try await daemon.ctl(["sign-out"])
            #expect(out.status == 0, "\(out.stderr)")
            let secondGuest = try #require(try await daemon.uid())
            #expect(secondGuest != guest)

            let inResult = try await daemon.ctl(["sign-in", "ray@example.com", "--password-stdin"], stdin: "secret12\n")
            #expect(inResult.status == 0, "\(inResult.stderr)")
            #expect(inResult.stdout.contains("signed in as ray@example.com (uid \(guest))"), "\(inResult.stdout)")
            #expect(inResult.stdout.contains("the guest's data (uid \(secondGuest)) will be merged"), "\(inResult.stdout)")

            let list = try await daemon.ctl(["merges", "list", "--json"])
            #expect(list.status == 0, "\(list.stderr)")
            #expect(list.stdout.contains(secondGuest), "\(list.stdout)")
            let mergeId = try #require(try await client.state().pendingMerges.first?.mergeId)
            let bogus = try await daemon.ctl(["merges", "complete", "no-such-id"])
            #expect(bogus.status == 1)
            #expect(bogus.stderr.contains("merges list"), "\(bogus.stderr)")
            let done = try await daemon.ctl(["merges", "complete", mergeId])
            #expect(done.status == 0, "\(done.stderr)")
            try await waitUntil("the merged guest is deleted") { try await !emulator.accountExists(secondGuest) }
            #expect(try await client.state().pendingMerges.isEmpty)

            let idp = try await daemon.ctl(["link", "idp", "google.com", "--id-token", claims(sub: "g-ray", email: "ray@example.com", verified: true)])
            #expect(idp.status == 0, "\(idp.stderr)")
            #expect(Set(try await client.state().user?.providers ?? []) == ["password", "google.com"])
            let again = try await daemon.ctl(["link", "idp", "google.com", "--id-token", claims(sub: "g-ray2", email: nil, verified: false)])
            #expect(again.status == 1)
            #expect(again.stderr.contains("already linked"), "\(again.stderr)")

            let unlink = try await daemon.ctl(["unlink", "google.com"])
            #expect(unlink.status == 0, "\(unlink.stderr)")
            #expect(try await client.state().user?.providers == ["password"])
            let unlinkAgain = try await daemon.ctl(["unlink", "google.com"])
            #expect(unlinkAgain.status == 1)
            #expect(unlinkAgain.stderr.contains("no such sign-in method"), "\(unlinkAgain.stderr)")

            let profile = try await daemon.ctl(["update-profile", "--display-name", "Ray"])
            #expect(profile.status == 0, "\(profile.stderr)")
            #expect(try await client.state().user?.displayName == "Ray")

            let idpSignIn = try await daemon.ctl(["sign-in-idp", "apple.com", "--id-token", #"{"email":"x@example.com"}"#])
            #expect(idpSignIn.status == 1)

            let deleted = try await daemon.ctl(["delete-account"])
            #expect(deleted.status == 0, "\(deleted.stderr)")
            #expect(deleted.stdout.hasPrefix("account deleted; now anonymous guest"), "\(deleted.stdout)")
            #expect(try await !emulator.accountExists(guest))
        }
    }

    @Test("sesamectl: send-link, complete-link --email into an account (merge message), merges, sign-in-idp into an account")
    func sesamectlLinkAndIdp() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let account = try await emulator.createAccount(email: "sam@example.com", password: "secret12")
            let guest = try #require(try await daemon.uid())
            let sent = try await daemon.ctl(["send-link", "sam@example.com"])
            #expect(sent.status == 0, "\(sent.stderr)")
            #expect(sent.stdout.contains("sent a sign-in link to sam@example.com"), "\(sent.stdout)")
            let bad = try await daemon.ctl(["send-link", "not an email"])
            #expect(bad.status == 1)
            #expect(bad.stderr.contains("not a valid email address"), "\(bad.stderr)")
            let link = try #require(try await emulator.oobLink(email: "sam@example.com"))
            let done = try await daemon.ctl(["complete-link", link, "--email", "sam@example.com"])
            #expect(done.status == 0, "\(done.stderr)")
            #expect(done.stdout.contains("signed in as sam@example.com (uid \(account))"), "\(done.stdout)")
            #expect(done.stdout.contains("the guest's data (uid \(guest)) will be merged"), "\(done.stdout)")
            let reused = try await daemon.ctl(["complete-link", link, "--email", "sam@example.com"])
            #expect(reused.status == 1)
            #expect(reused.stderr.contains("not valid or was already used"), "\(reused.stderr)")

            let list = try await daemon.ctl(["merges"])
            #expect(list.status == 0, "\(list.stderr)")
            #expect(list.stdout.contains("\(guest) -> \(account)"), "\(list.stdout)")

            // Signed in to an account, an IdP sign-in replaces it (no merge).
            let idp = try await daemon.ctl(["sign-in-idp", "google.com", "--id-token", claims(sub: "g-sam", email: nil, verified: false), "--json"])
            #expect(idp.status == 0, "\(idp.stderr)")
            let json = try JSONValue.parse(idp.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(json["merge"] == .null)
            #expect(json["state"]?["user"]?["providers"] == ["google.com"])
            // A new identity, but another account was signed in: it is replaced (signed-in).
            try await watch.waitFor("signed-in")
            // The earlier merge is still pending, its guest still there.
            #expect(try await client.state().pendingMerges.count == 1)
            #expect(try await emulator.accountExists(guest))

            let conflict = try await daemon.ctl(["link", "password", "sam@example.com", "--password-stdin"], stdin: "secret12\n")
            #expect(conflict.status == 1)
            #expect(conflict.stderr.contains("sesamectl sign-in sam@example.com"), "\(conflict.stderr)")
        }
    }

    @Test("two flows at once from two clients run one after the other; no guest is lost")
    func concurrentFlows() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            _ = try await emulator.createAccount(email: "old@example.com", password: "secret12")
            let guest = try #require(try await client.state().user?.uid)
            let other = daemon.client()
            defer { Task { await other.close() } }
            async let created: Result<SesameState, any Error> = {
                do { return .success(try await client.createAccount(email: "new@example.com", password: "secret12")) }
                catch { return .failure(error) }
            }()
            async let signedIn: Result<(state: SesameState, merge: SesameMerge?), any Error> = {
                do { return .success(try await other.signIn(identifier: "old@example.com", password: "secret12")) }
                catch { return .failure(error) }
            }()
            let (a, b) = await (created, signedIn)
            let signIn = try b.get()
            switch a {
            case .success(let linked):
                // createAccount first: the guest became new@…, then the sign-in replaced it.
                #expect(linked.user?.uid == guest)
                #expect(signIn.merge == nil)
            case .failure(let error):
                // signIn first: a merge; then createAccount found an account signed in.
                #expect((error as? SesameClientError)?.daemonError?.reason == "already-signed-in")
                #expect(signIn.merge?.fromUid == guest)
                #expect(try await emulator.accountExists(guest))
            }
            #expect(try await client.state().user?.email == "old@example.com")
        }
    }

    @Test("a link whose answer is lost (timeout): not retried; the guest is unchanged until reload shows the link")
    func linkTimeoutIsNotRetried() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let guest = try #require(try await client.state().user?.uid)
            _ = try await client.sendSignInLink(email: "tim@example.com")
            let link = try #require(try await emulator.oobLink(email: "tim@example.com"))
            // The daemon gives up after 10 s; the emulator handles the call after 10.5 s.
            try await emulator.faults(["latencyMs": 10500, "pathPrefix": "/identitytoolkit.googleapis.com/v1/accounts:signInWithEmailLink"])
            try await expectDaemonError("network-request-failed", code: 2000) {
                _ = try await client.completeSignInLink(link: link)
            }
            let calls = try await emulator.calls()["accounts:signInWithEmailLink"] ?? 0
            #expect(calls == 1, "the link was sent \(calls) times")
            try await emulator.clearFaults()
            let state = try await client.state()
            #expect(state.user?.uid == guest)
            #expect(state.user?.isAnonymous == true)
            try await waitUntil("the backend linked the guest after all") {
                try await emulator.account(guest)?["email"]?.stringValue == "tim@example.com"
            }
            let reloaded = try await client.reload()
            #expect(reloaded.user?.uid == guest)
            #expect(reloaded.user?.isAnonymous == false)
            #expect(reloaded.user?.email == "tim@example.com")
            try await watch.waitFor("linked")
        }
    }

    @Test("signed out (anonymous first off): link, IdP and createAccount sign up; signIn signs in; no merges")
    func fromSignedOut() async throws {
        let emulator = try await EmulatorProcess.start()
        defer { Task { await emulator.stop() } }
        let daemon = try await DaemonProcess.start(
            emulator: emulator, settings: ["session": ["anonymous_first": "false"]], waitFor: "signedOut")
        defer { Task { await daemon.cleanUp() } }
        let client = daemon.client()
        defer { Task { await client.close() } }
        let watch = try await StateWatch.start(client)
        defer { watch.stop() }

        _ = try await client.sendSignInLink(email: "so@example.com")
        let link = try #require(try await emulator.oobLink(email: "so@example.com"))
        let (linked, merge) = try await client.completeSignInLink(link: link)
        #expect(merge == nil)
        #expect(linked.status == .authenticated)
        #expect(linked.user?.email == "so@example.com")
        try await watch.waitFor("signed-up")
        _ = try await client.signOut()
        #expect(try await client.state().status == .signedOut)

        let (idp, idpMerge) = try await client.signInWithIdp(
            providerId: "google.com", idToken: claims(sub: "g-so", email: nil, verified: false))
        #expect(idpMerge == nil)
        #expect(idp.user?.providers == ["google.com"])
        _ = try await client.signOut()

        let created = try await client.createAccount(email: "so2@example.com", password: "secret12")
        #expect(created.user?.email == "so2@example.com")
        _ = try await client.signOut()
        let (signedIn, none) = try await client.signIn(identifier: "so2@example.com", password: "secret12")
        #expect(none == nil)
        #expect(signedIn.user?.email == "so2@example.com")
        #expect(signedIn.pendingMerges.isEmpty)
        try await watch.waitFor("signed-in")
        #expect(try await client.state().status == .authenticated)
    }

    @Test("linkCredential(emailLink) onto a taken email: email-already-in-use without spending the code; the link then signs in")
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

    @Test("a link whose answer was lost, then a reset: the account the backend linked is kept, not deleted as a guest")
    func resetAfterLostLinkKeepsTheAccount() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let guest = try #require(try await client.state().user?.uid)
            _ = try await client.sendSignInLink(email: "lost@example.com")
            let link = try #require(try await emulator.oobLink(email: "lost@example.com"))
            try await emulator.faults(["latencyMs": 10500, "pathPrefix": "/identitytoolkit.googleapis.com/v1/accounts:signInWithEmailLink"])
            try await expectDaemonError("network-request-failed", code: 2000) {
                _ = try await client.completeSignInLink(link: link)
            }
            try await emulator.clearFaults()
            try await waitUntil("the backend linked the guest after all") {
                try await emulator.account(guest)?["email"]?.stringValue == "lost@example.com"
            }
            // The daemon still believes it holds a guest; the person resets it.
            #expect(try await client.state().user?.isAnonymous == true)
            let reset = try await client.signOut(reset: true)
            #expect(reset.user?.uid != guest)
            try await waitUntil("the daemon decided about the old guest") {
                daemon.log.contains("no longer anonymous at the backend")
            }
            #expect(try await emulator.accountExists(guest))
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

    @Test("sesamectl: link email-link with the remembered address, reset-password, reload, sign-out --reset, delete-account of a guest")
    func sesamectlRest() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let guest = try #require(try await daemon.uid())
            let missing = try await daemon.ctl(["link", "email-link", "http://127.0.0.1:1/emulator/action?mode=signIn&oobCode=x&apiKey=k"])
            #expect(missing.status == 1)
            #expect(missing.stderr.contains("--email"), "\(missing.stderr)")
            #expect(try await daemon.ctl(["send-link", "uma@example.com"]).status == 0)
            let link = try #require(try await emulator.oobLink(email: "uma@example.com"))
            let linked = try await daemon.ctl(["link", "email-link", link])
            #expect(linked.status == 0, "\(linked.stderr)")
            #expect(linked.stdout.contains("signed in as uma@example.com (uid \(guest))"), "\(linked.stdout)")

            let reset = try await daemon.ctl(["reset-password", "uma@example.com"])
            #expect(reset.status == 0, "\(reset.stderr)")
            #expect(reset.stdout.contains("sent a password-reset email for uma@example.com"), "\(reset.stdout)")
            #expect(try await emulator.oobLink(email: "uma@example.com", requestType: "PASSWORD_RESET") != nil)
            let reload = try await daemon.ctl(["reload", "--json"])
            #expect(reload.status == 0, "\(reload.stderr)")
            #expect(reload.stdout.contains(guest))

            // Back to a guest: sign-out keeps the account; a guest needs --reset; delete-account deletes a guest.
            #expect(try await daemon.ctl(["sign-out"]).status == 0)
            #expect(try await emulator.accountExists(guest))
            let second = try #require(try await daemon.uid())
            let refused = try await daemon.ctl(["sign-out"])
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("sign-out --reset"), "\(refused.stderr)")
            let deleted = try await daemon.ctl(["delete-account"])
            #expect(deleted.status == 0, "\(deleted.stderr)")
            #expect(try await !emulator.accountExists(second))
            let third = try #require(try await daemon.uid())
            #expect(try await daemon.ctl(["sign-out", "--reset"]).status == 0)
            try await waitUntil("the reset guest is deleted") { try await !emulator.accountExists(third) }
            #expect(try await emulator.accountExists(guest))
        }
    }

    @Test("email enumeration protection (sign-in methods hidden): a link from a guest signs in and merges; providers empty")
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

    // MARK: - Order, faults and the remaining methods

    @Test("on one connection, merged (and with hold 0 the merge's userUpdated) come before the signIn response, in sequence")
    func eventsBeforeResponse() async throws {
        try await withDaemon(settings: ["merge": ["hold": "0"]]) { emulator, daemon, client, watch in
            _ = try await emulator.createAccount(email: "ord@example.com", password: "secret12")
            let connection = try RawConnection(path: daemon.socketPath)
            defer { connection.close() }
            try connection.send(#"{"jsonrpc":"2.0","id":1,"method":"subscribe","params":{"migrator":true}}"#)
            let subscribed = try connection.readUntilResponse(id: 1)
            let start = try #require(subscribed.last?["result"]?["state"]?["sequence"]?.int64Value)
            try connection.send(
                #"{"jsonrpc":"2.0","id":2,"method":"signIn","params":{"identifier":"ord@example.com","password":"secret12"}}"#)
            let lines = try connection.readUntilResponse(id: 2)
            let response = try #require(lines.last)
            let notifications = lines.dropLast()
            let methods = notifications.compactMap { $0["method"]?.stringValue }
            let merged = try #require(notifications.firstIndex { $0["params"]?["reason"]?.stringValue == "merged" })
            #expect(methods.contains("accountMerge"))
            #expect(notifications[(merged + 1)...].contains { $0["method"]?.stringValue == "userUpdated" }, "\(methods)")
            let sequences = notifications.compactMap { $0["params"]?["sequence"]?.int64Value }
            #expect(sequences.first.map { $0 > start } == true)
            #expect(sequences == sequences.sorted())
            let final = try #require(response["result"]?["state"])
            #expect(final["sequence"]?.int64Value == sequences.last)
            #expect(final["pendingMerges"]?.arrayValue?.isEmpty == true)
            #expect(response["result"]?["merge"]?["mergeId"]?.stringValue != nil)
        }
    }

    @Test("the backend failing in the middle of a sign-in: either the old session or the new one, never half")
    func backendFailsMidFlow() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let account = try await emulator.createAccount(email: "mid@example.com", password: "secret12")
            let guest = try #require(try await client.state().user?.uid)
            try await emulator.faults(["failNext": 1, "failStatus": 503, "pathPrefix": "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword"])
            try await expectDaemonError("backend-unavailable", code: 2000) {
                _ = try await client.signIn(identifier: "mid@example.com", password: "secret12")
            }
            var state = try await client.state()
            #expect(state.user?.uid == guest)
            #expect(state.pendingMerges.isEmpty)
            try await emulator.clearFaults()

            // The sign-in succeeds but reading the profile fails: the new session, with its merge.
            try await emulator.faults(["failNext": 1, "failStatus": 503, "pathPrefix": "/identitytoolkit.googleapis.com/v1/accounts:lookup"])
            let (after, merge) = try await client.signIn(identifier: "mid@example.com", password: "secret12")
            #expect(after.user?.uid == account)
            #expect(merge?.fromUid == guest)
            try await emulator.clearFaults()
            state = try await client.state()
            #expect(state.user?.uid == account)
            #expect(state.pendingMerges.count == 1)
            #expect(try await emulator.accountExists(guest))
            // A reload fills in the profile.
            let reloaded = try await client.reload()
            #expect(reloaded.user?.email == "mid@example.com")
            #expect(reloaded.user?.providers == ["password"])
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

// MARK: - Support

/// Starts the emulator and a daemon (merges held by default), a client and a state log, runs
/// `body`, and cleans up.
func withDaemon(
    settings: [String: [String: String]] = [:],
    _ body: (EmulatorProcess, DaemonProcess, SesameClient, StateWatch) async throws -> Void
) async throws {
    let emulator = try await EmulatorProcess.start()
    defer { Task { await emulator.stop() } }
    let daemon = try await DaemonProcess.start(emulator: emulator, settings: settings)
    defer { Task { await daemon.cleanUp() } }
    let client = daemon.client()
    defer { Task { await client.close() } }
    let watch = try await StateWatch.start(client)
    defer { watch.stop() }
    do {
        try await body(emulator, daemon, client, watch)
    } catch {
        Issue.record("daemon log tail:\n\(daemon.log.suffix(4000))")
        throw error
    }
}

/// The states a client's `stateChanges` yielded, for checking the reasons of changes.
final class StateWatch: Sendable {
    actor Log {
        var states: [SesameState] = []
        func add(_ state: SesameState) { states.append(state) }
        var reasons: [String] { states.compactMap { $0.changeReason?.rawValue } }
    }

    let log = Log()
    private let task: Task<Void, Never>

    private init(_ client: SesameClient) {
        let stream = client.stateChanges
        let log = log
        task = Task {
            do {
                for try await state in stream { await log.add(state) }
            } catch {}
        }
    }

    /// Starts watching and waits for the first state (the subscription is in place).
    static func start(_ client: SesameClient) async throws -> StateWatch {
        let watch = StateWatch(client)
        try await waitUntil("the client subscribed") { await !watch.log.states.isEmpty }
        return watch
    }

    /// Waits until a change with `reason` was seen.
    func waitFor(_ reason: String, timeout: Duration = .seconds(10)) async throws {
        do {
            try await waitUntil("a change with reason \(reason)", timeout: timeout) { await log.reasons.contains(reason) }
        } catch {
            throw HarnessError("\(error); reasons seen: \(await log.reasons)")
        }
    }

    func stop() { task.cancel() }
}

/// Runs `body`, expecting a daemon error with `reason`; returns it.
@discardableResult
func expectDaemonError(
    _ reason: String, code: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Void
) async throws -> SesameClientError.DaemonError? {
    do {
        try await body()
        Issue.record("expected \(reason), but it succeeded", sourceLocation: sourceLocation)
        return nil
    } catch let error as SesameClientError {
        guard let daemonError = error.daemonError else {
            Issue.record("expected \(reason), got \(error)", sourceLocation: sourceLocation)
            return nil
        }
        #expect(daemonError.reason == reason, "\(daemonError.message)", sourceLocation: sourceLocation)
        if let code { #expect(daemonError.code == code, sourceLocation: sourceLocation) }
        return daemonError
    }
}

/// A fake IdP ID token for the emulator: strict-JSON claims.
func claims(sub: String, email: String?, verified: Bool) -> String {
    var object: [String: JSONValue] = ["sub": .string(sub)]
    if let email {
        object["email"] = .string(email)
        object["email_verified"] = .bool(verified)
    }
    return JSONValue.object(object).jsonString
}

/// `application/x-www-form-urlencoded` value encoding.
func formEncoded(_ value: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
}

/// A raw protocol connection, to check the order of lines on one connection.
final class RawConnection {
    private let fd: Int32
    private var buffer: [UInt8] = []

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { throw HarnessError("connect \(path): \(errno)") }
    }

    func close() { _ = Glibc.close(fd) }

    func send(_ line: String) throws {
        let bytes = Array((line + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw HarnessError("write: \(errno)") }
    }

    /// The next line, waiting at most `timeout` seconds.
    func readLine(timeout: Int32 = 15) throws -> JSONValue {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return try JSONValue.parse(line)
            }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, timeout * 1000) > 0 else { throw HarnessError("no line within \(timeout) s") }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = read(fd, &chunk, chunk.count)
            guard n > 0 else { throw HarnessError("connection closed") }
            buffer += chunk[..<n]
        }
    }

    /// Every line up to and including the response with `id`.
    func readUntilResponse(id: Int64) throws -> [JSONValue] {
        var lines: [JSONValue] = []
        while true {
            let line = try readLine()
            lines.append(line)
            if line["id"]?.int64Value == id { return lines }
        }
    }
}
