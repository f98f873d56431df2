import Foundation
import SesameClient
import SesameLocalAPI
import SesameTesting
import Testing

/// Supabase's rotating refresh tokens (issue 9, item 3; docs/providers.md, "Rotating refresh
/// tokens"). The SIGKILL-between-rotation-and-keyring-write case is
/// `SessionFlowTests.sigkillMidRefresh` (on both backends); the concurrent case is
/// `SessionFlowTests.singleFlight`. Here: replaying an older token is reuse, which ends the
/// session.
@Suite("Supabase refresh-token rotation", .serialized, .timeLimit(.minutes(3)))
struct RotationTests {
    /// Takes a copy of the keyring, lets the daemon rotate twice, and puts the copy back: the
    /// daemon then holds a refresh token two rotations old (not the parent of the active one).
    /// The port's clock is moved past the 10 s reuse interval. Returns a client and its watch.
    func replayOldToken(
        _ emulator: EmulatorProcess, _ daemon: DaemonProcess, skew: Int, waitFor status: String
    ) async throws
        -> (SesameClient, StateWatch)
    {
        let saved = try makeTemporaryDirectory("kr")
        defer { try? FileManager.default.removeItem(atPath: saved) }
        #expect(try await daemon.stop() == 0)
        try daemon.saveState(to: saved)
        try await daemon.restart(waitFor: status)
        let client = daemon.client()
        let before = try await emulator.refreshCount()
        _ = try await client.idToken(forceRefresh: true)
        _ = try await client.idToken(forceRefresh: true)
        #expect(try await emulator.refreshCount() == before + 2)
        await client.close()
        #expect(try await daemon.stop() == 0)
        try daemon.restoreState(from: saved)
        try await emulator.faults(["clockSkewSeconds": .integer(Int64(skew))])
        try await daemon.restart(waitFor: nil)
        try await eventually("the daemon answers") { (try? await daemon.stateJSON()) != nil }
        let again = daemon.client()
        return (again, try await StateWatch.start(again))
    }

    @Test(
        "an older refresh token replayed outside the reuse interval: session-revoked; a guest becomes a fresh guest, an account is signed out"
    )
    func replayOutsideReuseInterval() async throws {
        try await withEmulatorAndDaemon(backend: .supabase) { emulator, daemon in
            let guest = try #require(try await daemon.uid())
            let (client, watch) = try await replayOldToken(emulator, daemon, skew: 60, waitFor: "anonymous")
            defer { Task { await client.close() } }
            // The daemon presents the old token: GoTrue answers refresh_token_already_used and
            // revokes the whole family; the daemon reports it and starts a new guest.
            _ = try? await client.idToken(forceRefresh: true)
            try await watch.waitFor("session-revoked")
            try await eventually("a fresh guest") {
                let state = try await client.state()
                return state.status == .anonymous && state.user != nil && state.user?.uid != guest
            }
            #expect(daemon.log.contains("refresh_token_already_used"))
            #expect(daemon.log.contains("session is over"))
            #expect(try await client.idToken(forceRefresh: true).uid != guest)
            watch.stop()

            // An account: the same replay signs it out (the account itself stays).
            let account = try #require(
                try await client.createAccount(email: "rot@example.com", password: "secret12").user?.uid)
            let (again, accountWatch) = try await replayOldToken(emulator, daemon, skew: 120, waitFor: "authenticated")
            defer { Task { await again.close() } }
            _ = try? await again.idToken(forceRefresh: true)
            try await accountWatch.waitFor("session-revoked")
            try await eventually("the account is signed out") {
                let state = try await again.state()
                return state.status != .authenticated && state.user?.uid != account
            }
            #expect(try await emulator.accountExists(account))
            accountWatch.stop()
        }
    }

    @Test("an older refresh token replayed inside the reuse interval is accepted: the session is kept")
    func replayInsideReuseInterval() async throws {
        // An hour-long interval, so "inside" does not depend on how fast the test runs.
        let emulator = try await EmulatorProcess.start(
            backend: .supabase, arguments: ["--supabase-refresh-reuse-interval", "3600"])
        defer { Task { await emulator.stop() } }
        let daemon = try await DaemonProcess.start(emulator: emulator)
        defer { Task { await daemon.cleanUp() } }
        let guest = try #require(try await daemon.uid())
        let (client, watch) = try await replayOldToken(emulator, daemon, skew: 0, waitFor: "anonymous")
        defer { Task { await client.close() } }
        defer { watch.stop() }
        #expect(try await client.idToken(forceRefresh: true).uid == guest)
        // And again: what the daemon stored from that answer is a live token of the family.
        #expect(try await client.idToken(forceRefresh: true).uid == guest)
        #expect(try await client.state().user?.uid == guest)
        #expect(!daemon.log.contains("refresh_token_already_used"), "\(daemon.log.suffix(2000))")
        #expect(!(await watch.log.reasons.contains("session-revoked")))
    }
}
