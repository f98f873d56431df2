import Foundation
import SesameTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What the built sesame-emulator says on standard error at start (issue 31, 6d): a warning when
/// it listens beyond loopback, and that its database is open until rules are uploaded.
@Suite("sesame-emulator's warnings at start", .timeLimit(.minutes(2)))
struct EmulatorStartupWarningTests {
    /// Starts the emulator on free ports with `host`, waits for its ready lines, and returns
    /// what it wrote on standard error by then.
    private func startupWarnings(host: String) async throws -> String {
        let directory = try makeTemporaryDirectory("emu-warn")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let emulator = try await ChildProcess(
            BuiltBinaries.path("sesame-emulator"),
            ["--host", host, "--auth-port", "0", "--database-port", "0", "--project", "warn-project"],
            logPrefix: directory + "/emulator")
        defer { if emulator.isRunning { emulator.signal(SIGKILL) } }
        try await eventually("the emulator is ready") {
            guard emulator.isRunning else { throw HarnessError("sesame-emulator exited: \(emulator.stderr)") }
            return emulator.stdout.contains("database listening")
        }
        let stderr = emulator.stderr
        emulator.signal(SIGTERM)
        _ = try await emulator.waitForExit()
        return stderr
    }

    @Test("bound beyond loopback (0.0.0.0): a warning on standard error that anyone reaching it can act")
    func beyondLoopback() async throws {
        let warnings = try await startupWarnings(host: "0.0.0.0")
        #expect(warnings.contains("warning: listening on 0.0.0.0, beyond this machine's loopback"), "\(warnings)")
    }

    @Test("on loopback: no such warning, but the open database is, with how to upload rules")
    func openDatabase() async throws {
        let warnings = try await startupWarnings(host: "127.0.0.1")
        #expect(!warnings.contains("beyond this machine's loopback"), "\(warnings)")
        #expect(warnings.contains("the Realtime Database allows every read and write until security rules"))
        #expect(warnings.contains("/.settings/rules.json?ns=warn-project-default-rtdb"), "\(warnings)")
    }
}
