import Foundation
import SesameClient
import SesameLocalAPI
import SesameTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The upgrade paths (issue 5) driven from `sesamectl`: its commands, messages and exit codes.
@Suite("upgrade paths end to end: sesamectl", .serialized, .timeLimit(.minutes(3)))
struct UpgradeSesamectlTests {
    @Test(
        "sesamectl: sign-up, sign-out, sign-in (merge message), merges list/complete, sign-in-idp, link, unlink, update-profile, delete-account"
    )
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

            let inResult = try await daemon.ctl(
                ["sign-in", "ray@example.com", "--password-stdin"], stdin: "secret12\n")
            #expect(inResult.status == 0, "\(inResult.stderr)")
            #expect(inResult.stdout.contains("signed in as ray@example.com (uid \(guest))"), "\(inResult.stdout)")
            #expect(
                inResult.stdout.contains("the guest's data (uid \(secondGuest)) will be merged"), "\(inResult.stdout)")

            let list = try await daemon.ctl(["merges", "list", "--json"])
            #expect(list.status == 0, "\(list.stderr)")
            #expect(list.stdout.contains(secondGuest), "\(list.stdout)")
            let mergeId = try #require(try await client.state().pendingMerges.first?.mergeId)
            let bogus = try await daemon.ctl(["merges", "complete", "no-such-id"])
            #expect(bogus.status == 1)
            #expect(bogus.stderr.contains("merges list"), "\(bogus.stderr)")
            let done = try await daemon.ctl(["merges", "complete", mergeId])
            #expect(done.status == 0, "\(done.stderr)")
            try await eventually("the merged guest is deleted") { try await !emulator.accountExists(secondGuest) }
            #expect(try await client.state().pendingMerges.isEmpty)

            let idp = try await daemon.ctl([
                "link", "idp", "google.com", "--id-token",
                claims(sub: "g-ray", email: "ray@example.com", verified: true),
            ])
            #expect(idp.status == 0, "\(idp.stderr)")
            #expect(Set(try await client.state().user?.providers ?? []) == ["password", "google.com"])
            let again = try await daemon.ctl([
                "link", "idp", "google.com", "--id-token", claims(sub: "g-ray2", email: nil, verified: false),
            ])
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

            let idpSignIn = try await daemon.ctl([
                "sign-in-idp", "apple.com", "--id-token", #"{"email":"x@example.com"}"#,
            ])
            #expect(idpSignIn.status == 1)

            let deleted = try await daemon.ctl(["delete-account", "--yes"])
            #expect(deleted.status == 0, "\(deleted.stderr)")
            #expect(deleted.stdout.hasPrefix("account deleted; now anonymous guest"), "\(deleted.stdout)")
            #expect(try await !emulator.accountExists(guest))
        }
    }

    @Test(
        "sesamectl: send-link, complete-link --email into an account (merge message), merges, sign-in-idp refused from an account, then linked to the guest after sign-out"
    )
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

            let list = try await daemon.ctl(["merges"])
            #expect(list.status == 0, "\(list.stderr)")
            #expect(list.stdout.contains("\(guest) -> \(account)"), "\(list.stdout)")

            // Signed in to an account, an IdP sign-in is refused (issue 31): sign out first.
            let idToken = claims(sub: "g-sam", email: nil, verified: false)
            let refused = try await daemon.ctl(["sign-in-idp", "google.com", "--id-token", idToken])
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("run `sesamectl sign-out` first"), "\(refused.stderr)")
            #expect(try await client.state().user?.uid == account)
            #expect(try await daemon.ctl(["sign-out"]).status == 0)
            // Signed out (a guest now), a spent link says so.
            let reused = try await daemon.ctl(["complete-link", link, "--email", "sam@example.com"])
            #expect(reused.status == 1)
            #expect(reused.stderr.contains("not valid or was already used"), "\(reused.stderr)")
            let idp = try await daemon.ctl(["sign-in-idp", "google.com", "--id-token", idToken, "--json"])
            #expect(idp.status == 0, "\(idp.stderr)")
            let json = try JSONValue.parse(idp.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(json["merge"] == .null)
            #expect(json["state"]?["user"]?["providers"] == ["google.com"])
            // A new identity, from the guest the sign-out made: linked to it.
            try await watch.waitFor("linked")
            // The earlier merge is still pending, its guest still there.
            #expect(try await client.state().pendingMerges.count == 1)
            #expect(try await emulator.accountExists(guest))

            let conflict = try await daemon.ctl(
                ["link", "password", "sam@example.com", "--password-stdin"], stdin: "secret12\n")
            #expect(conflict.status == 1)
            #expect(conflict.stderr.contains("sesamectl sign-in sam@example.com"), "\(conflict.stderr)")
        }
    }

    @Test(
        "sesamectl: link email-link with the remembered address, reset-password, reload, sign-out --reset, delete-account of a guest"
    )
    func sesamectlRest() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let guest = try #require(try await daemon.uid())
            let missing = try await daemon.ctl([
                "link", "email-link", "http://127.0.0.1:1/emulator/action?mode=signIn&oobCode=x&apiKey=k",
            ])
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
            // Signed out (a guest now), a spent link says so.
            let reused = try await daemon.ctl(["complete-link", link, "--email", "sam@example.com"])
            #expect(reused.status == 1)
            #expect(reused.stderr.contains("not valid or was already used"), "\(reused.stderr)")
            #expect(try await emulator.accountExists(guest))
            let second = try #require(try await daemon.uid())
            let refused = try await daemon.ctl(["sign-out"])
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("sign-out --reset"), "\(refused.stderr)")
            let deleted = try await daemon.ctl(["delete-account", "--yes"])
            #expect(deleted.status == 0, "\(deleted.stderr)")
            #expect(try await !emulator.accountExists(second))
            let third = try #require(try await daemon.uid())
            #expect(try await daemon.ctl(["sign-out", "--reset"]).status == 0)
            try await eventually("the reset guest is deleted") { try await !emulator.accountExists(third) }
            #expect(try await emulator.accountExists(guest))
        }
    }
}
