import Foundation
import SesameLocalAPI
import SesameTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `sesamectl` against daemons that are silent, closed to the caller or just starting
/// (issues 12 and 13), with the built binaries.
@Suite("sesamectl: timeouts, permissions, a starting daemon", .serialized, .timeLimit(.minutes(2)))
struct SesamectlRobustnessTests {
    @Test("--timeout: a socket that takes the connection and never answers ends with 69 naming the socket")
    func silentDaemonTimesOut() async throws {
        let directory = try makeTemporaryDirectory("silent")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/s.sock"
        let silent = try SilentSocket(path: path)
        defer { silent.close() }
        for arguments in [["status"], ["token"], ["sign-out", "--reset"], ["watch"]] {
            let result = try await runCommand(
                BuiltBinaries.path("sesamectl"), arguments + ["--socket", path, "--timeout", "0.5"], environment: [:])
            #expect(result.status == 69, "\(arguments): \(result)")
            #expect(result.stdout.isEmpty)
            #expect(
                result.stderr.contains(
                    "sesamed at \(path) did not answer within 0.5 s: check `systemctl status sesamed`"),
                "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
        let bad = try await runCommand(
            BuiltBinaries.path("sesamectl"), ["status", "--socket", path, "--timeout", "-1"], environment: [:])
        #expect(bad.status == 2, "\(bad)")
    }

    @Test("a user outside the socket's group is told to join it (group root: to ask), not to start sesamed")
    func permissionDenied() async throws {
        try await withEmulatorAndDaemon(settings: ["socket": ["mode": "\"0660\""]]) { _, daemon in
            chmod(daemon.directory, 0o755)
            let ctl = daemon.directory + "/sesamectl"
            try FileManager.default.copyItem(atPath: BuiltBinaries.path("sesamectl"), toPath: ctl)
            chmod(ctl, 0o755)
            let group = String(cString: getgrgid(getegid()).pointee.gr_name)
            let result = try await runCommand(
                "/usr/bin/setpriv",
                ["--reuid=nobody", "--regid=nogroup", "--clear-groups", ctl, "status", "--socket", daemon.socketPath],
                environment: [:])
            #expect(result.status == 69, "\(result)")
            // A socket of group root (tests run as root) is not a group to tell people to join.
            let advice =
                group == "root"
                ? "sesamed's socket belongs to group root; ask the administrator to set `socket.group` "
                    + "(or `access.readers`) in sesamed.toml, or run the command with sudo"
                : "join group \(group) (or ask an administrator)"
            #expect(
                result.stderr == "sesamectl: permission denied on \(daemon.socketPath): \(advice)\n",
                "\(result.stderr)")
            #expect(!result.stderr.contains("systemctl start"))
        }
    }

    @Test("status right after sesamed starts shows the guest it is creating, not `signed out`")
    func statusWaitsForTheFirstGuest() async throws {
        let emulator = try await EmulatorProcess.start()
        defer { Task { await emulator.stop() } }
        // A slow backend: the daemon's first signUp takes 1.5 s, so status arrives while the
        // daemon is still signed out (sequence 1).
        try await emulator.faults(["latencyMs": 1500])
        let daemon = try await DaemonProcess.start(emulator: emulator, waitFor: nil)
        defer { Task { await daemon.cleanUp() } }
        try await eventually("the daemon's socket exists") { FileManager.default.fileExists(atPath: daemon.socketPath) }
        let text = try await daemon.ctl(["status"])
        #expect(text.status == 0, "\(text)")
        #expect(text.stdout.contains("anonymous (guest)"), "\(text.stdout)")
        #expect(!text.stdout.contains("signed out"), "\(text.stdout)")
        #expect(try await emulator.calls()["accounts:signUp"] == 1)

        // And --json agrees, on a second daemon (fresh state directory).
        let second = try await DaemonProcess.start(emulator: emulator, waitFor: nil)
        defer { Task { await second.cleanUp() } }
        try await eventually("the second daemon's socket exists") {
            FileManager.default.fileExists(atPath: second.socketPath)
        }
        let json = try await second.ctl(["status", "--json"])
        #expect(json.status == 0, "\(json)")
        #expect(json.stdout.contains("\"status\":\"anonymous\""), "\(json.stdout)")
    }
}

/// A Unix socket that queues connections and never answers (nothing accepts): a hung daemon
/// behind a socket systemd holds.
final class SilentSocket: Sendable {
    let fd: Int32
    let path: String

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: errno \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8.prefix(raw.count - 1)) + [0])
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(fd, 64) == 0 else { throw HarnessError("bind/listen \(path): errno \(errno)") }
    }

    func close() {
        _ = Glibc.close(fd)
        unlink(path)
    }
}
