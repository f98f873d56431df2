import Foundation
import SesameTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `systemctl stop` can come while the daemon is still starting (loading the keyring, binding
/// the socket). It must stop cleanly then too: exit 0, not death by signal.
@Suite("sesamed: signals during start-up")
struct StartupSignalTests {
    @Test("SIGTERM as soon as sesamed holds its keyring lock (start-up) stops it cleanly with exit status 0")
    func sigtermWhileStarting() async throws {
        let emulator = try await EmulatorProcess.start()
        defer { Task { await emulator.stop() } }
        let daemon = try await DaemonProcess.start(emulator: emulator, waitFor: nil)
        defer { Task { await daemon.cleanUp() } }
        // The lock is taken early in start-up (before the key, the keyring and the socket).
        // The hook used to be a FIFO as the key credential, which blocked start-up; since
        // issue #25 a FIFO there is refused at once (HostileStateTests), so the test watches
        // the daemon's descriptors instead, without touching the lock itself.
        let lock = daemon.stateDirectory + "/keyring.lock"
        let pid = daemon.child.pid
        let deadline = ContinuousClock.now + .seconds(20)
        while !Self.holds(pid: pid, path: lock) {
            try #require(daemon.child.isRunning, "sesamed exited before taking its lock: \(daemon.log)")
            try #require(ContinuousClock.now < deadline, "sesamed did not take its lock within 20 s")
            try await Task.sleep(for: .milliseconds(1))
        }
        daemon.child.signal(SIGTERM)
        let status = try await daemon.child.waitForExit()
        #expect(status == 0, "sesamed must stop cleanly on a SIGTERM that came during start-up: \(daemon.log)")
    }

    /// Whether process `pid` has `path` open (read from `/proc/PID/fd`).
    static func holds(pid: Int32, path: String) -> Bool {
        let directory = "/proc/\(pid)/fd"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return false }
        return entries.contains {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\($0)")) == path
        }
    }
}
