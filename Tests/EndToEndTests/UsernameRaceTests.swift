import Foundation
import SesameClient
import SesameLocalAPI
import SesameTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Usernames under races and crashes (issue 6): one winner per name, nothing half-claimed after
/// a SIGKILL.
@Suite("usernames end to end: races and crashes", .serialized, .timeLimit(.minutes(3)))
struct UsernameRaceTests: UsernameTestHelpers {
    @Test("two daemons claim one name at the same moment, 20 times: exactly one wins every time")
    func race() async throws {
        try await withTwoDaemons { emulator, a, b, clientA, clientB in
            let uidA = try #require(
                try await clientA.createAccount(email: "racer.a@example.com", password: "secret12").user?.uid)
            let uidB = try #require(
                try await clientB.createAccount(email: "racer.b@example.com", password: "secret12").user?.uid)
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
    }

    @Test(
        "two guests create accounts with one username at the same moment, 8 times: exactly one gets it, the other is unchanged"
    )
    func createAccountRace() async throws {
        try await withTwoDaemons { emulator, a, b, clientA, clientB in
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
    }

    /// One emulator with two daemons on it and a client of each, for `body`; all of them
    /// stopped afterwards.
    private func withTwoDaemons(
        _ body: (EmulatorProcess, DaemonProcess, DaemonProcess, SesameClient, SesameClient) async throws -> Void
    ) async throws {
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
        try await body(emulator, a, b, clientA, clientB)
    }

    private func signUp(_ client: SesameClient, _ email: String, _ name: String) async -> Result<SesameState, any Error>
    {
        do { return .success(try await client.createAccount(email: email, password: "secret12", username: name)) } catch
        {
            return .failure(error)
        }
    }

    @Test("SIGKILL between the claim and the details write: finished on restart")
    func crashBetweenClaimAndDetails() async throws {
        try await withUsernameDaemon { emulator, daemon, client in
            let account = try await client.createAccount(
                email: "crash@example.com", password: "secret12", username: "first_name")
            let uid = try #require(account.user?.uid)
            try await databaseFaults(emulator, ["latencyMs": 4000, "pathPrefix": "/users/details"])
            let attempt = Task { try? await daemon.ctl(["username", "set", "Second_Name"]) }
            try await eventually("the new name is claimed") { try await owner(emulator, "second_name") == uid }
            try await daemon.kill()
            _ = await attempt.value
            try await databaseFaults(emulator, nil)
            // Both names are held for now; the keyring knows what is left to do.
            #expect(try await owner(emulator, "first_name") == uid)

            try await daemon.restart(waitFor: "authenticated")
            try await eventually("the rename is finished") {
                let record = try await details(emulator, uid)
                let old = try await database(emulator, "users/usernames/first_name")
                return record.username == "Second_Name" && old == .null
            }
            #expect(try await owner(emulator, "second_name") == uid)
            try await eventually("the state shows the new name") {
                try await client.state().user?.username == "Second_Name"
            }
            _ = try await client.signOut()  // a sign-in over an account is refused
            let signIn = try await client.signIn(identifier: "second_name", password: "secret12")
            #expect(signIn.state.user?.uid == uid)
        }
    }
}
