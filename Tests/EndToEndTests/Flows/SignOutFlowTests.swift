import Foundation
import SesameClient
import SesameLocalAPI
import SesameTesting
import Testing

/// Sessions ending on each backend (issue 9, item 6): sign-out (ended at the server on
/// Supabase), reset, and a session the backend revoked.
@Suite("flows: sign-out and revoked sessions", .serialized, .timeLimit(.minutes(3)))
struct SignOutFlowTests {
    @Test(
        "sign-out both ways; the reset guest is deleted at the backend, an account is not; Supabase ends the session at the server",
        arguments: TestBackend.allCases)
    func signOutBothWays(backend: TestBackend) async throws {
        try await withEmulatorAndDaemon(backend: backend) { emulator, daemon in
            let client = daemon.client()
            defer { Task { await client.close() } }
            let guest = try #require(try await client.state().user?.uid)
            try await expectDaemonError("requires-reset-confirmation") { _ = try await client.signOut() }
            let afterReset = try await client.signOut(reset: true)
            #expect(afterReset.status == .anonymous)
            let second = try #require(afterReset.user?.uid)
            #expect(second != guest)
            try await eventually("the old guest is gone at the backend") { try await !emulator.accountExists(guest) }

            let linked = try await client.createAccount(email: "out@example.com", password: "secret12")
            #expect(linked.user?.uid == second)
            let logoutsBefore = try await emulator.calls()["logout"] ?? 0
            let afterSignOut = try await client.signOut()
            #expect(afterSignOut.status == .anonymous)
            #expect(afterSignOut.user?.uid != second)
            #expect(try await emulator.accountExists(second))
            switch backend {
            case .firebase:
                // Firebase has no server-side sign-out: the session is forgotten.
                break
            case .supabase:
                // The account's session was ended at the server (POST /logout?scope=local).
                #expect(try await emulator.calls()["logout"] ?? 0 == logoutsBefore + 1)
            }
            // The new guest's session works.
            #expect(try await client.idToken(forceRefresh: true).uid == afterSignOut.user?.uid)
        }
    }

    @Test(
        "the account deleted by an administrator: session-revoked, then a new guest; also for an account",
        arguments: TestBackend.allCases)
    func revokedByAdminDelete(backend: TestBackend) async throws {
        try await withEmulatorAndDaemon(backend: backend) { emulator, daemon in
            let client = daemon.client()
            defer { Task { await client.close() } }
            let uid = try #require(try await client.state().user?.uid)
            try await emulator.deleteAccount(uid)
            let error = try await expectDaemonError("session-revoked", code: 4000) {
                _ = try await client.idToken(forceRefresh: true)
            }
            #expect(error != nil)
            try await eventually("a new anonymous user exists") {
                let state = try await client.state()
                return state.status == .anonymous && state.user?.uid != uid && state.user != nil
            }
            let guest = try #require(try await client.state().user?.uid)
            #expect(try await emulator.accountInfo(guest)?.isAnonymous == true)

            // An account: the same, and the machine is a guest again.
            let account = try await client.createAccount(email: "gone@example.com", password: "secret12")
            #expect(account.user?.uid == guest)
            try await emulator.deleteAccount(guest)
            try await expectDaemonError("session-revoked", code: 4000) {
                _ = try await client.idToken(forceRefresh: true)
            }
            try await eventually("a new guest replaced the deleted account") {
                let state = try await client.state()
                return state.status == .anonymous && state.user?.uid != guest && state.user != nil
            }
            #expect(daemon.log.contains("session is over"))
        }
    }

    @Test(
        "after sign-out the old session's refresh token is dead at Supabase (ended at the server), still valid at Firebase (only forgotten)",
        arguments: TestBackend.allCases)
    func signedOutSessionAtTheServer(backend: TestBackend) async throws {
        try await withEmulatorAndDaemon(backend: backend) { emulator, daemon in
            let client = daemon.client()
            let account = try #require(
                try await client.createAccount(email: "old@example.com", password: "secret12").user?.uid)
            await client.close()
            let saved = try makeTemporaryDirectory("kr")
            defer { try? FileManager.default.removeItem(atPath: saved) }
            #expect(try await daemon.stop() == 0)
            try daemon.saveState(to: saved)
            try await daemon.restart(waitFor: "authenticated")
            let signOut = try await daemon.ctl(["sign-out"])
            #expect(signOut.status == 0, "\(signOut.stderr)")
            #expect(try await daemon.stop() == 0)

            // The signed-out session put back, as a copy of the keyring would.
            try daemon.restoreState(from: saved)
            try await daemon.restart(waitFor: "authenticated")
            let again = daemon.client()
            defer { Task { await again.close() } }
            #expect(try await again.state().user?.uid == account)
            switch backend {
            case .firebase:
                #expect(try await again.idToken(forceRefresh: true).uid == account)
            case .supabase:
                try await expectDaemonError("session-revoked", code: 4000) {
                    _ = try await again.idToken(forceRefresh: true)
                }
                #expect(daemon.log.contains("refresh_token_not_found"))
                try await eventually("a new guest") {
                    let state = try await again.state()
                    return state.status == .anonymous && state.user != nil && state.user?.uid != account
                }
            }
            #expect(try await emulator.accountExists(account))
        }
    }
}
