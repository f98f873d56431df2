import Foundation
import SesameClient
import SesameLocalAPI
import SesameTesting
import Testing

/// The backend says a token lives absurdly long or short (the emulator's `tokenExpiresIn`
/// knob; red-team finding of issue #25): a column of faults on the token a session gets, on
/// Firebase (where the knob is). The daemon must survive, restart on its keyring, and never
/// storm the backend.
@Suite("Fault matrix: hostile token lifetimes")
struct HostileLifetimeTests {
    /// An emulator sending `expiresIn` with every token, and a daemon started on it.
    private func start(expiresIn: String) async throws -> (EmulatorProcess, DaemonProcess) {
        let emulator = try await EmulatorProcess.start()
        do {
            try await emulator.faults(["tokenExpiresIn": .string(expiresIn)])
            return (emulator, try await DaemonProcess.start(emulator: emulator))
        } catch {
            await emulator.stop()
            throw error
        }
    }

    @Test(
        "a huge expiresIn: the daemon survives, shows the expiry capped at year 9999, restarts on that keyring and stops with 0",
        arguments: ["1e16", "1e21"])
    func hugeLifetime(expiresIn: String) async throws {
        let (emulator, daemon) = try await start(expiresIn: expiresIn)
        defer {
            Task {
                await daemon.cleanUp()
                await emulator.stop()
            }
        }
        let uid = try await daemon.uid()
        let token = try await daemon.ctl(["token", "--json"])
        #expect(token.status == 0, "\(token.stderr)")
        #expect(token.stdout.contains("9999-12-31T23:59:59Z"), "\(token.stdout)")
        // Before the fix the maintenance loop trapped planning this token's refresh (132).
        #expect(try await daemon.stop() == 0, "\(daemon.log.suffix(2000))")
        try await daemon.restart()
        #expect(try await daemon.uid() == uid)
        let status = try await daemon.ctl(["status"])
        #expect(status.status == 0)
        #expect(try await daemon.stop() == 0, "\(daemon.log.suffix(2000))")
    }

    @Test("a 0.001 s expiresIn: no refresh storm (at most one automatic refresh in 10 s), callers still get tokens")
    func tinyLifetime() async throws {
        let (emulator, daemon) = try await start(expiresIn: "0.001")
        defer {
            Task {
                await daemon.cleanUp()
                await emulator.stop()
            }
        }
        let before = try await emulator.refreshCount()
        // A measurement window, not a wait for something to settle: before the fix the
        // backend saw about 20 refreshes a second here.
        try await Task.sleep(for: .seconds(10))
        let automatic = try await emulator.refreshCount() - before
        #expect(automatic <= 1, "\(automatic) automatic refreshes in 10 s")
        let client = daemon.client()
        defer { Task { await client.close() } }
        let token = try await client.idToken()
        #expect(token.uid == (try await daemon.uid()))
        #expect(try await emulator.refreshCount() > before + automatic, "a caller needing a valid token gets a refresh")
        #expect(try await daemon.stop() == 0)
    }
}
