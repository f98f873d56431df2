import Dispatch
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `systemctl stop` can come while the daemon is still starting (reading its key, loading the
/// keyring, binding the socket). It must stop cleanly then too: exit 0, not death by signal.
@Suite("sesamed: signals during start-up")
struct StartupSignalTests {
    @Test("SIGTERM while sesamed is still reading its keyring key stops it cleanly with exit status 0")
    func sigtermWhileStarting() async throws {
        let emulator = try await EmulatorProcess.start()
        defer { Task { await emulator.stop() } }
        // The key credential is a FIFO: sesamed blocks reading it until we write, so the SIGTERM
        // lands at a known point of its start-up, after the first instructions of `run`.
        let credentials = try makeTemporaryDirectory("cred")
        let keyPath = credentials + "/keyring.key"
        #expect(mkfifo(keyPath, 0o600) == 0)
        let daemon = try await DaemonProcess.start(
            emulator: emulator, environment: ["CREDENTIALS_DIRECTORY": credentials], waitFor: nil)

        // Opening the FIFO for writing returns only once sesamed has opened it for reading.
        let writer = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: open(keyPath, O_WRONLY | O_CLOEXEC)) }
        }
        #expect(writer >= 0)
        daemon.child.signal(SIGTERM)
        let key = Array(String(repeating: "ab", count: 32).utf8) + [10]
        #expect(key.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) } == key.count)
        close(writer)

        let status = try await daemon.child.waitForExit()
        #expect(status == 0, "sesamed must stop cleanly on a SIGTERM that came during start-up")
    }
}
