import Foundation
import SesameClient
import SesameLocalAPI
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Usernames through `sesamed`, `sesamectl` and `SesameClient`, against `sesame-emulator`'s
/// Realtime Database (issue 6).
@Suite("usernames end to end", .serialized, .timeLimit(.minutes(3)))
struct UsernameTests {
    static let namespace = "\(EmulatorProcess.project)-default-rtdb"

    // MARK: Helpers

    /// The value at a database path (`users/usernames/<key>`), read directly from the emulator.
    private func database(_ emulator: EmulatorProcess, _ path: String) async throws -> JSONValue {
        let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
        let (status, body) = try await emulator.request("GET", "/\(encoded).json?ns=\(Self.namespace)", port: emulator.databasePort)
        #expect(status == 200, "GET \(path): \(status)")
        return body
    }

    private func owner(_ emulator: EmulatorProcess, _ key: String) async throws -> String? {
        try await database(emulator, "users/usernames/\(key)").stringValue
    }

    private func details(_ emulator: EmulatorProcess, _ uid: String) async throws -> (username: String?, email: String?) {
        let body = try await database(emulator, "users/details/\(uid)")
        return (body["username"]?.stringValue, body["email"]?.stringValue)
    }

    private func databaseFaults(_ emulator: EmulatorProcess, _ settings: JSONValue?) async throws {
        if let settings {
            try await emulator.request("POST", "/sesame/v1/faults", json: settings, port: emulator.databasePort)
        } else {
            try await emulator.request("DELETE", "/sesame/v1/faults", port: emulator.databasePort)
        }
    }

    private func expectReason(
        _ reason: String, code: Int = 1000, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
    ) async {
        do {
            try await body()
            Issue.record("no error; expected \(reason)", sourceLocation: sourceLocation)
        } catch let error as SesameClientError {
            #expect(error.reason == reason, "\(error)", sourceLocation: sourceLocation)
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
        }
    }

    private func attempt(_ client: SesameClient, _ name: String) async -> Result<String?, any Error> {
        do { return .success(try await client.setUsername(name).user?.username) } catch { return .failure(error) }
    }

    private func withUsernameDaemon(
        settings: [String: [String: String]] = ["merge": ["hold": "0"]],
        _ body: (EmulatorProcess, DaemonProcess, SesameClient) async throws -> Void
    ) async throws {
        let emulator = try await EmulatorProcess.start()
        let daemon = try await DaemonProcess.start(emulator: emulator, settings: settings)
        let client = daemon.client()
        do {
            try await body(emulator, daemon, client)
        } catch {
            await client.close()
            await daemon.cleanUp()
            await emulator.stop()
            throw error
        }
        await client.close()
        await daemon.cleanUp()
        await emulator.stop()
    }

    // MARK: Tests

    @Test("username set from sesamectl; sign-in by username in any case keeps the display case; rename releases the old key")
    func setSignInRename() async throws {
        try await withUsernameDaemon { emulator, daemon, client in
            let account = try await client.createAccount(email: "fan@example.com", password: "secret12")
            let uid = try #require(account.user?.uid)

            let set = try await daemon.ctl(["username", "set", "NASA_Fan"])
            #expect(set.status == 0, "\(set.stderr)")
            #expect(try await client.state().user?.username == "NASA_Fan")
            #expect(try await owner(emulator, "nasa_fan") == uid)
            let record = try await details(emulator, uid)
            #expect(record.username == "NASA_Fan")
            #expect(record.email == "fan@example.com")

            #expect(try await daemon.ctl(["sign-out"]).status == 0)
            try await daemon.waitForStatus("anonymous")
            let signIn = try await daemon.ctl(["sign-in", "nasa_fan", "--password-stdin"], stdin: "secret12\n")
            #expect(signIn.status == 0, "\(signIn.stderr)")
            let state = try await client.state()
            #expect(state.user?.uid == uid)
            #expect(state.user?.username == "NASA_Fan")

            _ = try await client.signOut()
            let viaClient = try await client.signIn(identifier: "Nasa_FAN", password: "secret12")
            #expect(viaClient.state.user?.uid == uid)
            #expect(viaClient.state.user?.username == "NASA_Fan")

            let renamed = try await client.setUsername("Ann.Lee")
            #expect(renamed.user?.username == "Ann.Lee")
            #expect(try await owner(emulator, "ann,lee") == uid)
            #expect(try await database(emulator, "users/usernames/nasa_fan") == .null)
            #expect(try await details(emulator, uid).username == "Ann.Lee")
            let old = try await daemon.ctl(["sign-in", "NASA_Fan", "--password-stdin"], stdin: "secret12\n")
            #expect(old.status != 0)
            let checked = try await client.checkUsername("ann.lee")
            #expect(checked.available)  // the caller's own name
        }
    }

    @Test("a second account cannot take a name differing only by case or normalisation; reserved and confusable names")
    func uniquenessAndRules() async throws {
        try await withUsernameDaemon { emulator, daemon, client in
            let first = try await client.createAccount(email: "one@example.com", password: "secret12", username: "Straße_Café")
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
                _ = try await client.createAccount(email: "three@example.com", password: "secret12", username: "straße_café")
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
            try await waitUntil("a reset code for the account's email") {
                try await emulator.oobLink(email: "reset.me@example.com", requestType: "PASSWORD_RESET") != nil
            }
            await expectReason("username-not-found") { try await client.sendPasswordReset(identifier: "nobody_here") }
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
            let state = try await client.createAccount(email: "gone@example.com", password: "secret12", username: "Gone_User")
            let uid = try #require(state.user?.uid)
            _ = try await client.signOut()
            try await emulator.deleteAccount(uid)
            await expectReason("invalid-login-credentials") {
                _ = try await client.signIn(identifier: "gone_user", password: "secret12")
            }
        }
    }

    @Test("deleteAccount releases the username")
    func deleteReleases() async throws {
        try await withUsernameDaemon { emulator, _, client in
            let state = try await client.createAccount(email: "del@example.com", password: "secret12", username: "Deleted_Soon")
            #expect(try await owner(emulator, "deleted_soon") == state.user?.uid)
            let uid = try #require(state.user?.uid)
            _ = try await client.deleteAccount()
            #expect(try await database(emulator, "users/usernames/deleted_soon") == .null)
            #expect(try await details(emulator, uid).email == nil)  // no longer published
        }
    }

    @Test("usernames off: operation-not-allowed")
    func off() async throws {
        try await withUsernameDaemon(settings: ["firebase": ["database_emulator_host": "\"\""]]) { _, daemon, client in
            _ = try await client.createAccount(email: "off@example.com", password: "secret12")
            await expectReason("operation-not-allowed") { _ = try await client.setUsername("name") }
            await expectReason("operation-not-allowed") { _ = try await client.checkUsername("name") }
            await expectReason("operation-not-allowed") { _ = try await client.signIn(identifier: "name", password: "secret12") }
            await expectReason("operation-not-allowed") { try await client.sendPasswordReset(identifier: "name") }
            let ctl = try await daemon.ctl(["username", "check", "name"])
            #expect(ctl.status != 0)
        }
    }

    @Test("directory down: a clear 2000 error and nothing half-claimed")
    func directoryDown() async throws {
        try await withUsernameDaemon { emulator, _, client in
            let account = try await client.createAccount(email: "down@example.com", password: "secret12", username: "Before")
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
            let account = try await client.createAccount(email: "slow@example.com", password: "secret12", username: "Kept_Name")
            let uid = try #require(account.user?.uid)
            try await databaseFaults(emulator, ["latencyMs": 11000, "pathPrefix": "/users/usernames/slow_name"])
            do {
                _ = try await client.setUsername("Slow_Name")
                Issue.record("no error")
            } catch let error as SesameClientError {
                #expect(error.code == 2000, "\(error)")
            }
            try await databaseFaults(emulator, nil)
            try await waitUntil("nothing is left half-claimed", timeout: .seconds(40)) {
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

    @Test("two daemons claim one name at the same moment, 20 times: exactly one wins every time")
    func race() async throws {
        let emulator = try await EmulatorProcess.start()
        let a = try await DaemonProcess.start(emulator: emulator)
        let b = try await DaemonProcess.start(emulator: emulator)
        let clientA = a.client()
        let clientB = b.client()
        defer {
            Task {
                await clientA.close()
                await clientB.close()
                await a.cleanUp()
                await b.cleanUp()
                await emulator.stop()
            }
        }
        let uidA = try #require(try await clientA.createAccount(email: "racer.a@example.com", password: "secret12").user?.uid)
        let uidB = try #require(try await clientB.createAccount(email: "racer.b@example.com", password: "secret12").user?.uid)
        var wins = [uidA: 0, uidB: 0]
        for round in 0..<20 {
            let name = "Race_\(round)"
            async let first = attempt(clientA, name)
            async let second = attempt(clientB, name)
            let results = await [(uidA, first), (uidB, second)]
            var winners: [String] = []
            for (uid, result) in results {
                switch result {
                case .success(let username):
                    #expect(username == name)
                    winners.append(uid)
                case .failure(let error):
                    #expect((error as? SesameClientError)?.reason == "username-taken", "round \(round): \(error)")
                }
            }
            #expect(winners.count == 1, "round \(round): \(winners.count) winners")
            if let winner = winners.first {
                wins[winner, default: 0] += 1
                #expect(try await owner(emulator, "race_\(round)") == winner)
                #expect(try await details(emulator, winner).username == name)
            }
        }
        // Each account holds exactly one name: its last win.
        let all = try await database(emulator, "users/usernames").objectValue ?? [:]
        #expect(all.values.filter { $0.stringValue == uidA }.count == (wins[uidA]! > 0 ? 1 : 0))
        #expect(all.values.filter { $0.stringValue == uidB }.count == (wins[uidB]! > 0 ? 1 : 0))
    }

    @Test("two guests create accounts with one username at the same moment, 8 times: exactly one gets it, the other is unchanged")
    func createAccountRace() async throws {
        let emulator = try await EmulatorProcess.start()
        let a = try await DaemonProcess.start(emulator: emulator)
        let b = try await DaemonProcess.start(emulator: emulator)
        let clientA = a.client()
        let clientB = b.client()
        defer {
            Task {
                await clientA.close()
                await clientB.close()
                await a.cleanUp()
                await b.cleanUp()
                await emulator.stop()
            }
        }
        for round in 0..<8 {
            for client in [clientA, clientB] where try await client.state().status == .authenticated {
                _ = try await client.signOut()
            }
            let guests = [try await clientA.state().user?.uid, try await clientB.state().user?.uid]
            let name = "Guest_Race_\(round)"
            async let first = signUp(clientA, "a\(round)@example.com", name)
            async let second = signUp(clientB, "b\(round)@example.com", name)
            let results = await [first, second]
            var winners: [String] = []
            for (index, result) in results.enumerated() {
                switch result {
                case .success(let state):
                    #expect(state.user?.username == name)
                    #expect(state.user?.uid == guests[index])  // linked: uid kept
                    if let uid = state.user?.uid { winners.append(uid) }
                case .failure(let error):
                    #expect((error as? SesameClientError)?.reason == "username-taken", "round \(round): \(error)")
                    let state = try await (index == 0 ? clientA : clientB).state()
                    #expect(state.status == .anonymous)
                    #expect(state.user?.uid == guests[index])
                }
            }
            #expect(winners.count == 1, "round \(round): \(winners.count) winners")
            #expect(try await owner(emulator, "guest_race_\(round)") == winners.first)
        }
    }

    private func signUp(_ client: SesameClient, _ email: String, _ name: String) async -> Result<SesameState, any Error> {
        do { return .success(try await client.createAccount(email: email, password: "secret12", username: name)) } catch {
            return .failure(error)
        }
    }

    @Test("SIGKILL between the claim and the details write: finished on restart")
    func crashBetweenClaimAndDetails() async throws {
        try await withUsernameDaemon { emulator, daemon, client in
            let account = try await client.createAccount(email: "crash@example.com", password: "secret12", username: "first_name")
            let uid = try #require(account.user?.uid)
            try await databaseFaults(emulator, ["latencyMs": 4000, "pathPrefix": "/users/details"])
            let attempt = Task { try? await daemon.ctl(["username", "set", "Second_Name"]) }
            try await waitUntil("the new name is claimed") { try await owner(emulator, "second_name") == uid }
            try await daemon.kill()
            _ = await attempt.value
            try await databaseFaults(emulator, nil)
            // Both names are held for now; the keyring knows what is left to do.
            #expect(try await owner(emulator, "first_name") == uid)

            try await daemon.restart(waitFor: "authenticated")
            try await waitUntil("the rename is finished") {
                let record = try await details(emulator, uid)
                let old = try await database(emulator, "users/usernames/first_name")
                return record.username == "Second_Name" && old == .null
            }
            #expect(try await owner(emulator, "second_name") == uid)
            try await waitUntil("the state shows the new name") {
                try await client.state().user?.username == "Second_Name"
            }
            let signIn = try await client.signIn(identifier: "second_name", password: "secret12")
            #expect(signIn.state.user?.uid == uid)
        }
    }
}
