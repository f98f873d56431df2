import Foundation
import SesameClient
import SesameLocalAPI
import SesameTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `sesamed` in its system setting: started by socket activation, peers by role, configuration
/// and keyring errors with their exit statuses.
@Suite("sesamed end to end: activation, roles, configuration and keyring", .serialized, .timeLimit(.minutes(3)))
struct DaemonSystemTests {
    @Test("socket activation: started by the first connection on the socket systemd-socket-activate holds")
    func socketActivation() async throws {
        guard
            FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-socket-activate")
                || FileManager.default.isExecutableFile(atPath: "/bin/systemd-socket-activate")
        else {
            Issue.record("systemd-socket-activate is missing: install the systemd package (make deps does)")
            return
        }
        let emulator = try await EmulatorProcess.start()
        defer { Task { await emulator.stop() } }
        let directory = try makeTemporaryDirectory("a")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/act.sock"
        try """
        [firebase]
        api_key = "e2e"
        project_id = "\(EmulatorProcess.project)"
        auth_emulator_host = "\(emulator.authHost)"
        [socket]
        path = "\(directory)/unused.sock"
        """.write(toFile: directory + "/c.toml", atomically: true, encoding: .utf8)
        // The activator runs detached (not a child of this test process): Foundation's Process
        // loses track of its other children once a child exec()s another program.
        let command = [
            "/usr/bin/systemd-socket-activate", "-l", socket, "--fdname=control", BuiltBinaries.path("sesamed"),
            "--config", directory + "/c.toml", "--state-dir", directory + "/state",
        ].map { "'\($0)'" }.joined(separator: " ")
        let launcher = try await runCommand(
            "/bin/sh", ["-c", "\(command) > \(directory)/activate.log 2>&1 < /dev/null & echo $!"])
        let activatorPID = Int32(launcher.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        defer { if activatorPID > 0 { kill(activatorPID, SIGTERM) } }
        var activatorLog: String { (try? String(contentsOfFile: directory + "/activate.log", encoding: .utf8)) ?? "" }
        try await eventually("the activator listens") { FileManager.default.fileExists(atPath: socket) }
        #expect(!FileManager.default.fileExists(atPath: directory + "/state/keyring"))
        let result: CommandResult
        do {
            result = try await runCommand(
                BuiltBinaries.path("sesamectl"), ["status", "--json"], environment: ["SESAME_SOCKET": socket],
                timeout: .seconds(15))
        } catch {
            Issue.record("sesamectl did not finish; the activator said: \(activatorLog)")
            throw error
        }
        #expect(result.status == 0, "\(result.stderr) activator: \(activatorLog)")
        try await eventually("the activated daemon is anonymous") {
            let r = try await runCommand(
                BuiltBinaries.path("sesamectl"), ["status", "--json"], environment: ["SESAME_SOCKET": socket])
            return r.stdout.contains("\"anonymous\"")
        }
        #expect(activatorLog.contains("Listening on the socket systemd passed"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/unused.sock"))
    }

    @Test("roles: a peer running as nobody gets only what [access] grants")
    func rolesForNobody() async throws {
        let emulator = try await EmulatorProcess.start()
        defer { Task { await emulator.stop() } }
        let daemon = try await DaemonProcess.start(
            emulator: emulator,
            settings: ["socket": ["mode": "\"0666\""], "access": ["observers": "[\"user:nobody\"]", "readers": "[]"]])
        defer { Task { await daemon.cleanUp() } }
        chmod(daemon.directory, 0o755)
        // A copy nobody can reach wherever the build folder is (CI's clone may sit under a 0700 home).
        let ctl = daemon.directory + "/sesamectl"
        try FileManager.default.copyItem(atPath: BuiltBinaries.path("sesamectl"), toPath: ctl)
        chmod(ctl, 0o755)
        func asNobody(_ arguments: [String]) async throws -> CommandResult {
            try await runCommand(
                "/usr/sbin/runuser", ["-u", "nobody", "--", ctl] + arguments + ["--socket", daemon.socketPath])
        }
        let status = try await asNobody(["status", "--json"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("\"anonymous\""))
        let token = try await asNobody(["token"])
        #expect(token.status == 1)
        #expect(token.stdout.isEmpty)
        #expect(token.stderr.contains("reader"))
        let signOut = try await asNobody(["sign-out", "--reset"])
        #expect(signOut.status == 1)
        #expect(signOut.stderr.contains("manager"))
        #expect(try await daemon.stateJSON()["status"] as? String == "anonymous")
    }

    @Test("configuration errors stop sesamed with 78 and a message naming the key")
    func configurationErrors() async throws {
        let directory = try makeTemporaryDirectory("c")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cases: [(String, String)] = [
            (
                "[firebase]\napi_key = \"k\"\nproject_id = \"p\"\n[session]\nrefresh_margn = 3\n",
                "session.refresh_margn"
            ),
            (
                "[firebase]\napi_key = \"k\"\nproject_id = \"p\"\n[session]\nrefresh_margin = \"soon\"\n",
                "session.refresh_margin"
            ),
            ("[firebase]\napi_key = \"k\"\n", "firebase.project_id"),
            ("[firebase]\napi_key = \"k\"\nproject_id = \"p\"\n[access]\nreaders = [\"everyone\"]\n", "access.readers"),
            ("[firebase\n", "c.toml"),
        ]
        for (text, key) in cases {
            try text.write(toFile: directory + "/c.toml", atomically: true, encoding: .utf8)
            let result = try await runCommand(
                BuiltBinaries.path("sesamed"), ["--config", directory + "/c.toml", "--state-dir", directory + "/state"])
            #expect(result.status == 78, "\(text)")
            #expect(result.stderr.contains(key), "\(result.stderr)")
        }
        let tooLong = "/tmp/" + String(repeating: "x", count: 120) + "/s.sock"
        try "[firebase]\napi_key = \"k\"\nproject_id = \"p\"\n".write(
            toFile: directory + "/c.toml", atomically: true, encoding: .utf8)
        let result = try await runCommand(
            BuiltBinaries.path("sesamed"),
            ["--config", directory + "/c.toml", "--socket", tooLong, "--state-dir", directory + "/state"])
        #expect(result.status == 78)
        #expect(result.stderr.contains(tooLong))
    }

    @Test("a corrupt keyring stops sesamed with 65 and is left as it was; a second daemon on one keyring gets 75")
    func keyringErrors() async throws {
        let emulator = try await EmulatorProcess.start()
        defer { Task { await emulator.stop() } }
        let daemon = try await DaemonProcess.start(emulator: emulator)
        defer { Task { await daemon.cleanUp() } }

        let second = try await runCommand(
            BuiltBinaries.path("sesamed"),
            [
                "--config", daemon.configPath, "--state-dir", daemon.stateDirectory, "--socket",
                daemon.directory + "/2.sock",
            ])
        #expect(second.status == 75)
        #expect(second.stderr.contains(daemon.stateDirectory + "/keyring"))

        #expect(try await daemon.stop() == 0)
        let keyring = daemon.stateDirectory + "/keyring"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: keyring))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: keyring))
        let corrupt = try await runCommand(
            BuiltBinaries.path("sesamed"), ["--config", daemon.configPath, "--state-dir", daemon.stateDirectory])
        #expect(corrupt.status == 65)
        #expect(corrupt.stderr.contains(keyring))
        #expect(try Data(contentsOf: URL(fileURLWithPath: keyring)) == bytes)
    }
}
