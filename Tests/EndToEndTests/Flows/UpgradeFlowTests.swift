import Foundation
import SesameClient
import SesameLocalAPI
import SesameTesting
import Testing

/// A guest becomes an account on each backend (issue 9, item 6): in place with createAccount,
/// or by signing in to an existing account, which records a merge that survives SIGKILL and
/// deletes the guest only once a migrator completes it.
@Suite("flows: upgrades and merges", .serialized, .timeLimit(.minutes(3)))
struct UpgradeFlowTests {
    @Test(
        "createAccount from a guest links in place: uid kept, reason linked, provider password",
        arguments: TestBackend.allCases)
    func createAccountLinks(backend: TestBackend) async throws {
        try await withDaemon(backend: backend) { emulator, daemon, client, watch in
            let guest = try #require(try await client.state().user?.uid)
            let state = try await client.createAccount(email: "Ann@Example.com", password: "secret12")
            #expect(state.status == .authenticated)
            #expect(state.user?.uid == guest)
            #expect(state.user?.isAnonymous == false)
            #expect(state.user?.email == "ann@example.com")
            #expect(state.user?.providers == ["password"])
            #expect(state.pendingMerges.isEmpty)
            try await watch.waitFor("linked")
            #expect(
                try await emulator.accountInfo(guest)
                    == BackendAccount(email: "ann@example.com", providers: ["password"], isAnonymous: false))
            let token = try await client.idToken(forceRefresh: true)
            #expect(token.uid == guest && token.signInProvider == "password")
        }
    }

    @Test(
        "signIn from a guest records a merge that survives SIGKILL; the guest is deleted only after completeMerge",
        arguments: TestBackend.allCases)
    func mergeSurvivesSigkill(backend: TestBackend) async throws {
        try await withDaemon(backend: backend) { emulator, daemon, client, watch in
            let guest = try #require(try await client.state().user?.uid)
            let account = try await emulator.createAccount(email: "acc@example.com", password: "secret12")
            let (state, signedIn) = try await client.signIn(identifier: "acc@example.com", password: "secret12")
            let merge = try #require(signedIn)
            #expect(merge.fromUid == guest && merge.toUid == account)
            #expect(state.status == .authenticated && state.user?.uid == account)
            #expect(state.pendingMerges.map(\.mergeId) == [merge.mergeId])
            try await watch.waitFor("merged")

            try await daemon.kill()
            #expect(try await emulator.accountExists(guest))
            try await daemon.restart(waitFor: "authenticated")
            let client = daemon.client()
            defer { Task { await client.close() } }
            let after = try await client.state()
            #expect(after.user?.uid == account)
            #expect(after.pendingMerges == [merge])
            #expect(try await emulator.accountExists(guest))

            // A migrator hears the pending merge right after subscribing, and can read the guest.
            var iterator = client.merges.makeAsyncIterator()
            #expect(try await iterator.next() == merge)
            #expect(try await client.idToken(uid: guest).uid == guest)
            try await expectDaemonError("no-such-merge", code: 4000) {
                _ = try await client.idToken(uid: "not-a-guest")
            }
            try await expectDaemonError("no-such-merge", code: 4000) {
                _ = try await client.completeMerge(mergeId: "not-a-merge")
            }
            #expect(try await emulator.accountExists(guest))

            let completed = try await client.completeMerge(mergeId: merge.mergeId)
            #expect(completed.pendingMerges.isEmpty && completed.user?.uid == account)
            // Both backends delete the guest (Supabase through the deployed delete function).
            try await eventually("the guest is deleted") { try await !emulator.accountExists(guest) }
            #expect(try await emulator.accountExists(account))
            try await expectDaemonError("no-such-merge", code: 4000) {
                _ = try await client.completeMerge(mergeId: merge.mergeId)
            }
            // Nothing comes back after another restart.
            try await daemon.kill()
            try await daemon.restart(waitFor: "authenticated")
            #expect(try await daemon.client().state().pendingMerges.isEmpty)
        }
    }

    @Test(
        "SIGKILL while the backend's sign-in answer is on its way: the guest's session is intact; signing in again merges",
        arguments: TestBackend.allCases)
    func sigkillMidMerge(backend: TestBackend) async throws {
        try await withDaemon(backend: backend) { emulator, daemon, client, watch in
            let account = try await emulator.createAccount(email: "kil@example.com", password: "secret12")
            let guest = try #require(try await client.state().user?.uid)
            let signInPath =
                backend == .supabase
                ? "/auth/v1/token" : "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword"
            try await emulator.faults(["answerDelayMs": 120_000, "pathPrefix": .string(signInPath)])
            let pending = Task { try? await client.signIn(identifier: "kil@example.com", password: "secret12") }
            try await eventually("the backend signed in and holds its answer") { try await emulator.answersHeld() >= 1 }
            try await daemon.kill()
            _ = await pending.value
            try await emulator.faults(["answerDelayMs": 0])

            try await daemon.restart()
            let again = daemon.client()
            defer { Task { await again.close() } }
            let state = try await again.state()
            #expect(state.status == .anonymous && state.user?.uid == guest)
            #expect(state.pendingMerges.isEmpty)
            #expect(try await again.idToken(forceRefresh: true).uid == guest)
            #expect(try await emulator.accountExists(guest))

            let (after, merge) = try await again.signIn(identifier: "kil@example.com", password: "secret12")
            #expect(after.user?.uid == account)
            #expect(merge?.fromUid == guest)
        }
    }

    /// On Supabase the guest's refresh token rotates like the account's: the merge's copy must
    /// be stored after each refresh, or the next one (after a restart too) would be reuse.
    @Test(
        "a migrator's guest token is refreshed from the merge's own refresh token, also after a restart",
        arguments: TestBackend.allCases)
    func guestTokenRefresh(backend: TestBackend) async throws {
        let emulator = try await EmulatorProcess.start(backend: backend, tokenLifetime: 120)
        defer { Task { await emulator.stop() } }
        let daemon = try await DaemonProcess.start(emulator: emulator)
        defer { Task { await daemon.cleanUp() } }
        let client = daemon.client()
        defer { Task { await client.close() } }
        let guest = try #require(try await client.state().user?.uid)
        _ = try await emulator.createAccount(email: "mig@example.com", password: "secret12")
        let merge = try #require(try await client.signIn(identifier: "mig@example.com", password: "secret12").merge)
        let before = try await emulator.refreshCount()
        // Valid for 120 s, less than the 300 s asked for: a refresh of the guest's tokens.
        #expect(try await client.idToken(minValidity: 300, uid: guest).uid == guest)
        #expect(try await emulator.refreshCount() == before + 1)
        #expect(try await client.idToken(forceRefresh: true, uid: guest).uid == guest)
        try await daemon.kill()
        try await daemon.restart(waitFor: "authenticated")
        let again = daemon.client()
        defer { Task { await again.close() } }
        #expect(try await again.idToken(forceRefresh: true, uid: guest).uid == guest)
        #expect(try await emulator.refreshCount() == before + 3)
        #expect(!daemon.log.contains("refresh_token_already_used"))
        _ = try await again.completeMerge(mergeId: merge.mergeId)
        try await eventually("the guest is deleted") { try await !emulator.accountExists(guest) }
        try await expectDaemonError("no-such-merge", code: 4000) { _ = try await again.idToken(uid: guest) }
    }
}
