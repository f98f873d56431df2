import Foundation
import SesameLocalAPI
import SesameTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `sesamectl`'s account commands (issue 4): sign-up, sign-in, merges, the profile, links and
/// providers, human and `--json`.
@Suite("sesamectl end to end: accounts", .serialized, .timeLimit(.minutes(3)))
struct SesamectlAccountTests: SesamectlTestHelpers {
    @Test("sign-up, email-already-in-use, sign-out (--reset), sign-in with a merge, merges list|complete")
    func signUpSignInMerges() async throws {
        try await withDaemon(settings: ["merge": ["hold": "600"]]) { emulator, daemon in
            let guest = try #require(try await daemon.uid())
            let signUp = try await daemon.ctl(["sign-up", "ann@example.com", "--password-stdin"], stdin: "secret-1\n")
            #expect(signUp.status == 0, "\(signUp)")
            #expect(signUp.stdout == "signed in as ann@example.com (uid \(guest))\n")
            #expect(try await daemon.uid() == guest)

            // A guest's sign-out needs --reset.
            let signOut = try await daemon.ctl(["sign-out"])
            #expect(signOut.status == 0, "\(signOut)")
            #expect(signOut.stdout.hasPrefix("signed out; now anonymous guest (uid "))
            let guest2 = try #require(try await daemon.uid())
            #expect(guest2 != guest)
            let refused = try await daemon.ctl(["sign-out"])
            #expect(refused.status == 1)
            #expect(oneLine(refused).contains("sesamectl sign-out --reset"))

            // Signing up with a taken email says to sign in instead.
            let taken = try await daemon.ctl(["sign-up", "ann@example.com", "--password-stdin"], stdin: "secret-1\n")
            #expect(taken.status == 1)
            let advice = oneLine(taken)
            #expect(advice.contains("run `sesamectl sign-in ann@example.com`"), "\(advice)")
            #expect(advice.contains("guest data will be merged"), "\(advice)")
            #expect(taken.stdout.isEmpty)

            let weak = try await daemon.ctl(["sign-up", "bob@example.com", "--password-stdin"], stdin: "x\n")
            #expect(weak.status == 1)
            #expect(oneLine(weak).contains("password"))

            let wrong = try await daemon.ctl(["sign-in", "ann@example.com", "--password-stdin"], stdin: "nope-nope\n")
            #expect(wrong.status == 1)
            #expect(oneLine(wrong).contains("sesamectl reset-password"))

            let signIn = try await daemon.ctl(
                ["sign-in", "ann@example.com", "--password-stdin", "--json"], stdin: "secret-1\n")
            #expect(signIn.status == 0, "\(signIn)")
            let result = try object(signIn)
            let merge = try #require(result["merge"] as? [String: Any])
            #expect(merge["fromUid"] as? String == guest2)
            #expect(merge["toUid"] as? String == guest)
            #expect((result["state"] as? [String: Any])?["status"] as? String == "authenticated")
            let mergeId = try #require(merge["mergeId"] as? String)

            let list = try await daemon.ctl(["merges", "list"])
            #expect(list.status == 0)
            #expect(list.stdout.contains("\(mergeId)  \(guest2) -> \(guest)"), "\(list.stdout)")
            #expect(try await daemon.ctl(["merges"]).stdout == list.stdout)
            let listJSON = try await daemon.ctl(["merges", "list", "--json"])
            let merges = try #require(
                try JSONSerialization.jsonObject(with: Data(listJSON.stdout.utf8)) as? [[String: Any]])
            #expect(merges.map { $0["mergeId"] as? String } == [mergeId])
            let status = try await daemon.ctl(["status"])
            #expect(status.stdout.contains("pending merges:  1"), "\(status.stdout)")
            #expect(status.stdout.contains("password"))
            #expect(status.stdout.contains("ann@example.com"))

            let unknown = try await daemon.ctl(["merges", "complete", "no-such-merge"])
            #expect(unknown.status == 1)
            #expect(oneLine(unknown).contains("sesamectl merges list"))
            let complete = try await daemon.ctl(["merges", "complete", mergeId])
            #expect(complete.status == 0, "\(complete)")
            #expect(complete.stdout == "merge \(mergeId) completed; 0 pending\n")
            #expect(try await daemon.ctl(["merges", "list"]).stdout == "no pending merges\n")
            try await eventually("the guest account is deleted") { try await !emulator.accountExists(guest2) }

            // From an account, sign-out needs no --reset; from a guest, --reset deletes it.
            #expect(try await daemon.ctl(["sign-out", "--json"]).status == 0)
            let guest3 = try #require(try await daemon.uid())
            let reset = try await daemon.ctl(["sign-out", "--reset"])
            #expect(reset.status == 0, "\(reset)")
            #expect(try await daemon.uid() != guest3)
            try await eventually("the reset guest is deleted") { try await !emulator.accountExists(guest3) }
        }
    }

    @Test("update-profile, verify-email, reload, reset-password, username check, delete-account")
    func profileCommands() async throws {
        try await withDaemon { emulator, daemon in
            // A guest has no email to verify.
            #expect(try await daemon.ctl(["verify-email"]).status == 1)
            #expect(
                try await daemon.ctl(["sign-up", "cy@example.com", "--password-stdin"], stdin: "secret-1\n").status == 0
            )
            let uid = try #require(try await daemon.uid())

            let profile = try await daemon.ctl(["update-profile", "--display-name", "Cy Young"])
            #expect(profile.status == 0, "\(profile)")
            #expect(profile.stdout == "display name: Cy Young\n")
            let profileJSON = try object(try await daemon.ctl(["update-profile", "--display-name", "Cy", "--json"]))
            #expect((profileJSON["user"] as? [String: Any])?["displayName"] as? String == "Cy")

            let verify = try await daemon.ctl(["verify-email"])
            #expect(verify.status == 0, "\(verify)")
            #expect(verify.stdout.contains("sesamectl reload"))
            let link = try #require(try await emulator.oobLink(email: "cy@example.com", requestType: "VERIFY_EMAIL"))
            let oobCode = try #require(URLComponents(string: link)?.queryItems?.first { $0.name == "oobCode" }?.value)
            try await emulator.request(
                "POST", "/identitytoolkit.googleapis.com/v1/accounts:update?key=k", json: ["oobCode": .string(oobCode)])
            let reload = try await daemon.ctl(["reload"])
            #expect(reload.status == 0, "\(reload)")
            #expect(reload.stdout.contains("cy@example.com (verified)"), "\(reload.stdout)")
            let reloadJSON = try object(try await daemon.ctl(["reload", "--json"]))
            #expect((reloadJSON["user"] as? [String: Any])?["emailVerified"] as? Bool == true)

            let resetPassword = try await daemon.ctl(["reset-password", "cy@example.com"])
            #expect(resetPassword.status == 0, "\(resetPassword)")
            #expect(resetPassword.stdout == "sent a password-reset email for cy@example.com\n")
            #expect(try await emulator.oobLink(email: "cy@example.com", requestType: "PASSWORD_RESET") != nil)
            #expect(try await daemon.ctl(["reset-password", "cy@example.com", "--json"]).stdout == "{}\n")

            // Usernames are on (the daemon has a database emulator): only the CLI's plumbing here.
            let free = try await daemon.ctl(["username", "check", "cy.young"])
            #expect(free.status == 0, "\(free)")
            #expect(free.stdout == "cy.young is available\n")
            let freeJSON = try object(try await daemon.ctl(["username", "check", "cy.young", "--json"]))
            #expect(freeJSON["available"] as? Bool == true)
            #expect(freeJSON["username"] as? String == "cy.young")
            let invalid = try await daemon.ctl(["username", "check", "a@b"])
            #expect(invalid.status == 1)
            #expect(invalid.stdout == "a@b is not available (invalid-username)\n")
            let invalidJSON = try object(try await daemon.ctl(["username", "check", "a@b", "--json"]))
            #expect(invalidJSON["available"] as? Bool == false)
            #expect(invalidJSON["reason"] as? String == "invalid-username")

            // The username commands' plumbing (their rules are tested in UsernameTests).
            let setName = try await daemon.ctl(["username", "set", "cy.young"])
            #expect(setName.status == 0, "\(setName)")
            #expect(setName.stdout == "your username is now cy.young\n")
            let withName = try await daemon.ctl(["status"])
            #expect(withName.stdout.contains("username:        cy.young"), "\(withName.stdout)")
            #expect(withName.stdout.contains("display name:    Cy"), "\(withName.stdout)")
            let ownName = try await daemon.ctl(["username", "check", "cy.young"])
            #expect(ownName.status == 0, "\(ownName)")
            #expect(ownName.stdout == "cy.young is your username\n")

            let deleted = try await daemon.ctl(["delete-account", "--yes"])
            #expect(deleted.status == 0, "\(deleted)")
            #expect(deleted.stdout.hasPrefix("account deleted; now anonymous guest (uid "), "\(deleted.stdout)")
            try await eventually("the account is gone") { try await !emulator.accountExists(uid) }
            let guestDeleted = try object(try await daemon.ctl(["delete-account", "--yes", "--json"]))
            #expect(guestDeleted["status"] as? String == "anonymous")
        }
    }

    @Test("send-link, complete-link, sign-in-idp, link idp|password|email-link, unlink")
    func linksAndProviders() async throws {
        try await withDaemon(settings: ["merge": ["hold": "600"]]) { emulator, daemon in
            let guest = try #require(try await daemon.uid())
            let sent = try await daemon.ctl(["send-link", "dee@example.com"])
            #expect(sent.status == 0, "\(sent)")
            #expect(sent.stdout.contains("sent a sign-in link to dee@example.com"))
            let link = try #require(try await emulator.oobLink(email: "dee@example.com"))
            let completed = try await daemon.ctl(["complete-link", link])
            #expect(completed.status == 0, "\(completed)")
            #expect(completed.stdout == "signed in as dee@example.com (uid \(guest))\n")

            let linked = try await daemon.ctl(
                ["link", "idp", "google.com", "--id-token", idpClaims(sub: "g-dee", email: "dee@example.com")])
            #expect(linked.status == 0, "\(linked)")
            #expect(try await daemon.ctl(["status"]).stdout.contains("google.com"))
            let unlinked = try await daemon.ctl(["unlink", "google.com", "--json"])
            #expect(unlinked.status == 0, "\(unlinked)")
            #expect((try object(unlinked)["user"] as? [String: Any])?["providers"] as? [String] == ["password"])
            let noSuch = try await daemon.ctl(["unlink", "apple.com"])
            #expect(noSuch.status == 1)
            #expect(oneLine(noSuch).contains("sesamectl status"))

            // A fresh guest signs in with a new federated identity: linked in place.
            #expect(try await daemon.ctl(["sign-out"]).status == 0)
            let guest2 = try #require(try await daemon.uid())
            // The spent link again (from the guest: over an account the sign-in rule answers first).
            // The daemon forgot the address once its link completed (asked from the guest the
            // sign-out made: sesamectl signs in over no account).
            let forgotten = try await daemon.ctl(["complete-link", link])
            #expect(forgotten.status == 1)
            #expect(oneLine(forgotten).contains("--email"))
            let reused = try await daemon.ctl(["complete-link", link, "--email", "dee@example.com"])
            #expect(reused.status == 1)
            #expect(oneLine(reused).contains("sesamectl send-link"))
            let idp = try await daemon.ctl(
                [
                    "sign-in-idp", "google.com", "--id-token", idpClaims(sub: "g-eve", email: "eve@example.com"),
                    "--json",
                ])
            #expect(idp.status == 0, "\(idp)")
            let idpResult = try object(idp)
            #expect(idpResult["merge"] is NSNull)
            #expect(((idpResult["state"] as? [String: Any])?["user"] as? [String: Any])?["uid"] as? String == guest2)

            // The password of an email from another account is a conflict.
            let conflict = try await daemon.ctl(
                ["link", "password", "dee@example.com", "--password-stdin"], stdin: "secret-1\n")
            #expect(conflict.status == 1, "\(conflict)")
            _ = oneLine(conflict)
            let password = try await daemon.ctl(
                ["link", "password", "eve.pw@example.com", "--password-stdin"], stdin: "secret-1\n")
            #expect(password.status == 0, "\(password)")
            #expect(try await daemon.ctl(["status"]).stdout.contains("password"))

            // email-link onto a guest, with the address remembered from send-link.
            #expect(try await daemon.ctl(["sign-out"]).status == 0)
            let guest3 = try #require(try await daemon.uid())
            #expect(try await daemon.ctl(["send-link", "fay@example.com"]).status == 0)
            let faysLink = try #require(try await emulator.oobLink(email: "fay@example.com"))
            let emailLink = try await daemon.ctl(["link", "email-link", faysLink])
            #expect(emailLink.status == 0, "\(emailLink)")
            #expect(emailLink.stdout == "signed in as fay@example.com (uid \(guest3))\n")
        }
    }
}

/// Fake IdP credentials the emulator accepts: strict-JSON claims.
func idpClaims(sub: String, email: String) -> String {
    JSONValue.object(["sub": .string(sub), "email": .string(email), "email_verified": .bool(true)]).jsonString
}
