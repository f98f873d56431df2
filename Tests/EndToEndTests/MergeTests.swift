import Foundation
import SesameClient
import SesameLocalAPI
import SesameTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Merges end to end (docs/protocol.md, Merges): durable across SIGKILL, held until a migrator
/// completes them (or `merge.hold` runs out), and the guest deleted only then.
@Suite("merges end to end", .serialized, .timeLimit(.minutes(3)))
struct MergeTests {
    /// Signs the daemon's guest in to a new account made at the backend; returns the merge.
    func mergeGuest(
        _ emulator: EmulatorProcess, _ client: SesameClient, email: String = "acc@example.com"
    ) async throws -> (merge: SesameMerge, account: String) {
        let account = try await emulator.createAccount(email: email, password: "secret12")
        let (_, merge) = try await client.signIn(identifier: email, password: "secret12")
        return (try #require(merge), account)
    }

    @Test("a new merge reaches a subscribed migrator as accountMerge")
    func migratorHearsNewMerge() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let migrator = daemon.client()
            defer { Task { await migrator.close() } }
            let notifications = migrator.notifications
            let heard = Task { () -> SesameMerge? in
                for try await notification in notifications {
                    if case .accountMerge(let merge) = notification.event { return merge }
                }
                return nil
            }
            let merges = migrator.merges
            _ = merges
            try await Task.sleep(for: .milliseconds(500))
            let (merge, _) = try await mergeGuest(emulator, client)
            let value = try await heard.value
            #expect(value == merge)
        }
    }

    @Test("the example migrator moves the guest's records, completes the merge, and the guest is deleted")
    func exampleMigrator() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let guest = try #require(try await client.state().user?.uid)
            let store = daemon.directory + "/notes.json"
            try #"{"\#(guest)": ["guest note 1", "guest note 2"], "someone-else": ["keep"]}"#
                .write(toFile: store, atomically: true, encoding: .utf8)
            let (merge, account) = try await mergeGuest(emulator, client)
            #expect(try await emulator.accountExists(guest))

            let help = try await runCommand(BuiltBinaries.path("sesame-example-migrator"), ["--help"])
            #expect(help.status == 0)
            #expect(help.stdout.contains("--once"))

            let run = try await runCommand(
                BuiltBinaries.path("sesame-example-migrator"),
                ["--store", store, "--socket", daemon.socketPath, "--once"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("merge \(merge.mergeId): moved 2 record(s)"), "\(run.stdout)")
            #expect(run.stdout.contains("merge \(merge.mergeId): completed"), "\(run.stdout)")

            let data = try Data(contentsOf: URL(fileURLWithPath: store))
            let records = try JSONDecoder().decode([String: [String]].self, from: data)
            #expect(records[guest] == nil)
            #expect(records[account] == ["guest note 1", "guest note 2"])
            #expect(records["someone-else"] == ["keep"])
            #expect(try await client.state().pendingMerges.isEmpty)
            try await eventually("the guest is deleted") { try await !emulator.accountExists(guest) }

            // Nothing left: a second run does nothing and succeeds.
            let second = try await runCommand(
                BuiltBinaries.path("sesame-example-migrator"),
                ["--store", store, "--socket", daemon.socketPath, "--once"])
            #expect(second.status == 0, "\(second.stderr)")
            #expect(second.stdout.isEmpty, "\(second.stdout)")
        }
    }

    @Test("the example migrator, following: handles a merge recorded while it runs")
    func exampleMigratorFollowing() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let guest = try #require(try await client.state().user?.uid)
            let store = daemon.directory + "/notes.json"
            try #"{"\#(guest)": ["n"]}"#.write(toFile: store, atomically: true, encoding: .utf8)
            let migrator = try await ChildProcess(
                BuiltBinaries.path("sesame-example-migrator"), ["--store", store, "--socket", daemon.socketPath],
                logPrefix: daemon.directory + "/migrator")
            defer { migrator.signal(SIGTERM) }
            try await Task.sleep(for: .milliseconds(500))
            let (_, account) = try await mergeGuest(emulator, client)
            try await eventually("the migrator completed the merge") { try await client.state().pendingMerges.isEmpty }
            try await eventually("the guest is deleted") { try await !emulator.accountExists(guest) }
            let records = try JSONDecoder().decode(
                [String: [String]].self, from: Data(contentsOf: URL(fileURLWithPath: store)))
            #expect(records == [account: ["n"]], "\(migrator.stdout) \(migrator.stderr)")
        }
    }

    @Test("sign-out keeps the account and a pending merge's guest; reset deletes only the reset guest")
    func signOutDeletesTheRightAccounts() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let guest = try #require(try await client.state().user?.uid)
            let (merge, account) = try await mergeGuest(emulator, client)
            let out = try await client.signOut()
            let second = try #require(out.user?.uid)
            #expect(out.status == .anonymous)
            #expect(out.pendingMerges == [merge])
            #expect(try await emulator.accountExists(account))
            #expect(try await emulator.accountExists(guest))

            let reset = try await client.signOut(reset: true)
            let third = try #require(reset.user?.uid)
            #expect(third != second)
            try await eventually("the reset guest is deleted") { try await !emulator.accountExists(second) }
            #expect(try await emulator.accountExists(guest))
            #expect(try await emulator.accountExists(account))
            try await watch.waitFor("reset")

            // The old merge can still be completed, and only then is its guest deleted.
            _ = try await client.completeMerge(mergeId: merge.mergeId)
            try await eventually("the merged guest is deleted") { try await !emulator.accountExists(guest) }
            #expect(try await emulator.accountExists(third))
            #expect(try await emulator.accountExists(account))
        }
    }

    @Test("a completed merge whose guest deletion failed: after SIGKILL and restart the guest is still deleted")
    func completedMergeSurvivesSigkill() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            let guest = try #require(try await client.state().user?.uid)
            let (merge, account) = try await mergeGuest(emulator, client)
            try await emulator.faults([
                "failNext": 1000, "failStatus": 503, "pathPrefix": "/identitytoolkit.googleapis.com/v1/accounts:delete",
            ])
            _ = try await client.completeMerge(mergeId: merge.mergeId)
            try await daemon.kill()
            #expect(try await emulator.accountExists(guest))
            try await emulator.clearFaults()
            try await daemon.restart(waitFor: "authenticated")
            try await eventually("the guest is deleted after the restart") { try await !emulator.accountExists(guest) }
            let state = try await daemon.client().state()
            #expect(state.pendingMerges.isEmpty)
            #expect(state.user?.uid == account)
        }
    }

    @Test("merge.hold = 0 through an email link and through an IdP: the guest is deleted at once")
    func holdZeroOtherFlows() async throws {
        try await withDaemon(settings: ["merge": ["hold": "0"]]) { emulator, daemon, client, watch in
            _ = try await emulator.createAccount(email: "lnk@example.com", password: "secret12")
            let guest = try #require(try await client.state().user?.uid)
            _ = try await client.sendSignInLink(email: "lnk@example.com")
            let link = try #require(try await emulator.oobLink(email: "lnk@example.com"))
            let (state, merge) = try await client.completeSignInLink(link: link)
            #expect(merge?.fromUid == guest)
            #expect(state.pendingMerges.isEmpty)
            #expect(try await !emulator.accountExists(guest))

            // Back to a guest, then into an IdP account.
            _ = try await client.signOut()
            let second = try #require(try await client.state().user?.uid)
            _ = try await emulator.request(
                "POST", "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=k",
                json: [
                    "postBody": .string(
                        "providerId=apple.com&id_token=" + formEncoded(claims(sub: "ap-1", email: nil, verified: false))
                    ),
                    "requestUri": "http://localhost", "returnSecureToken": true,
                ])
            let (idpState, idpMerge) = try await client.signInWithIdp(
                providerId: "apple.com", idToken: claims(sub: "ap-1", email: nil, verified: false))
            #expect(idpMerge?.fromUid == second)
            #expect(idpState.pendingMerges.isEmpty)
            #expect(try await !emulator.accountExists(second))
        }
    }

}
