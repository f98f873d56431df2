import Foundation
import SesameClient
import SesameLocalAPI
import SesameTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Usernames through `sesamed`, `sesamectl` and `SesameClient`, against `sesame-emulator`'s
/// Realtime Database (issue 6): rules, resets by username, dangling names, the directory off,
/// down or slow.
@Suite("usernames end to end", .serialized, .timeLimit(.minutes(3)))
struct UsernameTests: UsernameTestHelpers {
    @Test("a second account cannot take a name differing only by case or normalisation; reserved and confusable names")
    func uniquenessAndRules() async throws {
        try await withUsernameDaemon { emulator, daemon, client in
            let first = try await client.createAccount(
                email: "one@example.com", password: "secret12", username: "Straße_Café")
            let firstUid = try #require(first.user?.uid)
            #expect(first.user?.username == "Straße_Café")
            #expect(try await owner(emulator, "strasse_café") == firstUid)

            _ = try await client.signOut()
            let second = try await client.createAccount(email: "two@example.com", password: "secret12")
            let secondUid = try #require(second.user?.uid)
            #expect(secondUid != firstUid)
            for variant in ["STRASSE_CAFÉ", "strasse_cafe\u{301}", "Ｓｔｒａｓｓｅ_Café"] {
                await expectReason("username-taken") { _ = try await client.setUsername(variant) }
            }
            await expectReason("username-reserved") { _ = try await client.setUsername("Admin") }
            await expectReason("username-reserved") { _ = try await client.setUsername("ＲＯＯＴ") }
            await expectReason("invalid-username") { _ = try await client.setUsername("p\u{430}ypal") }  // Cyrillic а
            await expectReason("invalid-username") { _ = try await client.setUsername("NASA Fan") }
            await expectReason("invalid-username") { _ = try await client.setUsername("ab") }
            #expect(try await client.state().user?.username == nil)
            #expect(try await owner(emulator, "strasse_café") == firstUid)

            let check = try await daemon.ctl(["username", "check", "STRASSE_CAFÉ", "--json"])
            #expect(check.status == 1)
            #expect(check.stdout.contains("username-taken"), "\(check.stdout)")
            let free = try await daemon.ctl(["username", "check", "free_name"])
            #expect(free.status == 0, "\(free.stderr)")
            let reserved = try await client.checkUsername("support")
            #expect(!reserved.available && reserved.reason == "username-reserved")
            let confusable = try await client.checkUsername("gοοgle")  // Greek omicrons
            #expect(!confusable.available && confusable.reason == "invalid-username")

            // createAccount with a taken name changes nothing.
            _ = try await client.signOut()
            let guest = try #require(try await client.state().user?.uid)
            await expectReason("username-taken") {
                _ = try await client.createAccount(
                    email: "three@example.com", password: "secret12", username: "straße_café")
            }
            let after = try await client.state()
            #expect(after.user?.uid == guest)
            #expect(after.status == .anonymous)
        }
    }

    @Test("password reset by username reaches the account's email; unknown names")
    func passwordResetByUsername() async throws {
        try await withUsernameDaemon { emulator, daemon, client in
            let up = try await daemon.ctl(
                ["sign-up", "reset.me@example.com", "--username", "Resetter", "--password-stdin"], stdin: "secret12\n")
            #expect(up.status == 0, "\(up.stderr)")
            let uid = try #require(try await client.state().user?.uid)
            #expect(try await client.state().user?.username == "Resetter")
            #expect(try await owner(emulator, "resetter") == uid)
            #expect(try await details(emulator, uid).email == "reset.me@example.com")
            let sent = try await daemon.ctl(["reset-password", "RESETTER"])
            #expect(sent.status == 0, "\(sent.stderr)")
            try await eventually("a reset code for the account's email") {
                try await emulator.oobLink(email: "reset.me@example.com", requestType: "PASSWORD_RESET") != nil
            }
            await expectReason("username-not-found") { try await client.sendPasswordReset(identifier: "nobody_here") }
            _ = try await client.signOut()  // over an account, a sign-in is refused before the password is tried
            await expectReason("invalid-login-credentials") {
                _ = try await client.signIn(identifier: "nobody_here", password: "secret12")
            }
            await expectReason("invalid-login-credentials") {
                _ = try await client.signIn(identifier: "Resetter", password: "wrong-one")
            }
        }
    }

    @Test("a username whose details record is missing or whose account was deleted: the same error")
    func danglingNames() async throws {
        try await withUsernameDaemon { emulator, _, client in
            // A name pointing at a uid without details.
            let (status, _) = try await emulator.request(
                "PUT", "/users/usernames/ghost_name.json?ns=\(Self.namespace)", json: .string("no-such-uid"),
                port: emulator.databasePort)
            #expect(status == 200)
            await expectReason("invalid-login-credentials") {
                _ = try await client.signIn(identifier: "ghost_name", password: "secret12")
            }
            // A name whose account was deleted by an administrator.
            let state = try await client.createAccount(
                email: "gone@example.com", password: "secret12", username: "Gone_User")
            let uid = try #require(state.user?.uid)
            _ = try await client.signOut()
            try await emulator.deleteAccount(uid)
            await expectReason("invalid-login-credentials") {
                _ = try await client.signIn(identifier: "gone_user", password: "secret12")
            }
        }
    }

    @Test("usernames off: operation-not-allowed")
    func off() async throws {
        try await withUsernameDaemon(settings: ["firebase": ["database_emulator_host": "\"\""]]) { _, daemon, client in
            _ = try await client.createAccount(email: "off@example.com", password: "secret12")
            await expectReason("operation-not-allowed") { _ = try await client.setUsername("name") }
            await expectReason("operation-not-allowed") { _ = try await client.checkUsername("name") }
            await expectReason("operation-not-allowed") {
                _ = try await client.signIn(identifier: "name", password: "secret12")
            }
            await expectReason("operation-not-allowed") { try await client.sendPasswordReset(identifier: "name") }
            let ctl = try await daemon.ctl(["username", "check", "name"])
            #expect(ctl.status != 0)
        }
    }

    @Test("directory down: a clear 2000 error and nothing half-claimed")
    func directoryDown() async throws {
        try await withUsernameDaemon { emulator, _, client in
            let account = try await client.createAccount(
                email: "down@example.com", password: "secret12", username: "Before")
            let uid = try #require(account.user?.uid)
            try await databaseFaults(emulator, ["failNext": 1, "failStatus": 503, "pathPrefix": "/users/details"])
            do {
                _ = try await client.setUsername("After")
                Issue.record("no error")
            } catch let error as SesameClientError {
                #expect(error.code == 2000, "\(error)")
            }
            try await databaseFaults(emulator, nil)
            #expect(try await database(emulator, "users/usernames/after") == .null)
            #expect(try await owner(emulator, "before") == uid)
            #expect(try await details(emulator, uid).username == "Before")
            #expect(try await client.state().user?.username == "Before")
        }
    }

    @Test("directory slow: the claim times out as a 2000 error; whatever landed is given back, the old name kept")
    func directorySlow() async throws {
        try await withUsernameDaemon { emulator, _, client in
            let account = try await client.createAccount(
                email: "slow@example.com", password: "secret12", username: "Kept_Name")
            let uid = try #require(account.user?.uid)
            try await databaseFaults(emulator, ["latencyMs": 11000, "pathPrefix": "/users/usernames/slow_name"])
            do {
                _ = try await client.setUsername("Slow_Name")
                Issue.record("no error")
            } catch let error as SesameClientError {
                #expect(error.code == 2000, "\(error)")
            }
            try await databaseFaults(emulator, nil)
            try await eventually("nothing is left half-claimed", timeout: .seconds(40)) {
                let slow = try await database(emulator, "users/usernames/slow_name")
                let kept = try await owner(emulator, "kept_name")
                return slow == .null && kept == uid
            }
            #expect(try await details(emulator, uid).username == "Kept_Name")
            #expect(try await client.state().user?.username == "Kept_Name")
            // And the name can be had once the directory is fast again.
            #expect(try await client.setUsername("Slow_Name").user?.username == "Slow_Name")
        }
    }
}
