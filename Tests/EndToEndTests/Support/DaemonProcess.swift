import Foundation
import SesameClient
import SesameTesting

#if canImport(Glibc)
import Glibc
#endif

/// The built `sesamed`, against an ``EmulatorProcess``, with its socket, keyring and
/// configuration in a short temporary directory.
final class DaemonProcess: @unchecked Sendable {
    let directory: String
    let emulator: EmulatorProcess
    private(set) var child: ChildProcess
    private let settings: [String: [String: String]]
    private let environment: [String: String]
    /// A command the daemon is started under (`ip netns exec NAME`), or none.
    private let launcher: [String]

    var socketPath: String { directory + "/s.sock" }
    var configPath: String { directory + "/sesamed.toml" }
    var stateDirectory: String { directory + "/state" }

    /// - Parameters:
    ///   - settings: configuration keys by section, as TOML literals (`["merge": ["hold": "0"]]`).
    ///   - waitFor: a status to wait for (`anonymous` by default); nil to return at once.
    ///   - launcher: a command to start the daemon under (`["/usr/sbin/ip", "netns", "exec", name]`).
    static func start(
        emulator: EmulatorProcess, settings: [String: [String: String]] = [:], environment: [String: String] = [:],
        directory: String? = nil, waitFor status: String? = "anonymous", launcher: [String] = []
    ) async throws -> DaemonProcess {
        let directory = try directory ?? makeTemporaryDirectory("d")
        var all = backendSettings(emulator)
        all["socket"] = ["path": "\"\(directory)/s.sock\""]
        for (section, keys) in settings { all[section, default: [:]].merge(keys) { _, new in new } }
        var toml = ""
        for (section, keys) in all.sorted(by: { $0.key < $1.key }) {
            toml += "[\(section)]\n"
            for (key, value) in keys.sorted(by: { $0.key < $1.key }) { toml += "\(key) = \(value)\n" }
        }
        try toml.write(toFile: directory + "/sesamed.toml", atomically: true, encoding: .utf8)
        let daemon = try await DaemonProcess(
            directory: directory, emulator: emulator, settings: all, environment: environment, launcher: launcher)
        if let status { try await daemon.waitForStatus(status) }
        return daemon
    }

    /// The `[firebase]`, or `[backend]` and `[supabase]`, sections for the emulator's backend.
    static func backendSettings(_ emulator: EmulatorProcess) -> [String: [String: String]] {
        if let supabase = emulator.supabase {
            return [
                "backend": ["provider": "\"supabase\""],
                "supabase": ["url": "\"\(supabase.url)\"", "anon_key": "\"\(supabase.anonKey)\""],
            ]
        }
        return [
            "firebase": [
                "api_key": "\"e2e-key\"", "project_id": "\"\(EmulatorProcess.project)\"",
                "auth_emulator_host": "\"\(emulator.authHost)\"",
                "database_emulator_host": "\"\(emulator.databaseHost)\"",
            ]
        ]
    }

    private init(
        directory: String, emulator: EmulatorProcess, settings: [String: [String: String]],
        environment: [String: String], launcher: [String]
    ) async throws {
        self.directory = directory
        self.emulator = emulator
        self.settings = settings
        self.environment = environment
        self.launcher = launcher
        self.child = try await Self.launch(
            directory: directory, environment: environment, launcher: launcher, generation: 0)
    }

    private var generation = 0

    private static func launch(
        directory: String, environment: [String: String], launcher: [String], generation: Int
    ) async throws -> ChildProcess {
        let command =
            launcher + [BuiltBinaries.path("sesamed")]
            + ["--config", directory + "/sesamed.toml", "--state-dir", directory + "/state", "--log-level", "debug"]
        return try await ChildProcess(
            command[0], Array(command.dropFirst()), environment: environment,
            logPrefix: directory + "/sesamed.\(generation)")
    }

    /// Starts the daemon again on the same keyring and socket (after ``stop()`` or ``kill()``).
    func restart(waitFor status: String? = "anonymous") async throws {
        generation += 1
        child = try await Self.launch(
            directory: directory, environment: environment, launcher: launcher, generation: generation)
        if let status { try await waitForStatus(status) }
    }

    /// SIGTERM, then the exit status.
    @discardableResult
    func stop() async throws -> Int32 {
        child.signal(SIGTERM)
        return try await child.waitForExit()
    }

    /// SIGKILL: no chance to clean up.
    func kill() async throws {
        child.signal(SIGKILL)
        _ = try await child.waitForExit()
    }

    func cleanUp() async {
        if child.isRunning { try? await kill() }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// All of the daemon's stderr so far (every generation).
    var log: String {
        (0...generation).map {
            (try? String(contentsOfFile: directory + "/sesamed.\($0).err", encoding: .utf8)) ?? ""
        }.joined()
    }

    /// Runs `sesamectl` against this daemon.
    func ctl(
        _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]
    ) async throws -> CommandResult {
        var env = environment
        env["SESAME_SOCKET"] = socketPath
        return try await runCommand(BuiltBinaries.path("sesamectl"), arguments, environment: env, stdin: stdin)
    }

    /// A fresh client library instance for this daemon.
    func client() -> SesameClient { SesameClient(socketPath: socketPath) }

    /// The daemon's state (status, uid, …), via `sesamectl status --json`.
    func stateJSON() async throws -> [String: Any] {
        let result = try await ctl(["status", "--json"])
        guard result.status == 0, let data = result.stdout.data(using: .utf8),
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { throw HarnessError("status failed: \(result.stderr)") }
        return object
    }

    func waitForStatus(_ status: String, timeout: Duration = .seconds(30)) async throws {
        do {
            try await eventually("sesamed reports \(status)", timeout: timeout) {
                guard child.isRunning || status == "exited" else {
                    throw HarnessError("sesamed exited: \(log)")
                }
                return (try? await stateJSON())?["status"] as? String == status
            }
        } catch {
            throw HarnessError("\(error); log:\n\(log.suffix(3000))")
        }
    }

    /// The current uid.
    func uid() async throws -> String? {
        ((try await stateJSON())["user"] as? [String: Any])?["uid"] as? String
    }
}

/// An emulator and a daemon for one test, on `backend`: `body` runs with them, then both stop,
/// whether it passed or threw.
func withEmulatorAndDaemon(
    backend: TestBackend = .firebase, settings: [String: [String: String]] = [:],
    waitFor status: String? = "anonymous", _ body: (EmulatorProcess, DaemonProcess) async throws -> Void
) async throws {
    let emulator = try await EmulatorProcess.start(backend: backend)
    let daemon: DaemonProcess
    do {
        daemon = try await DaemonProcess.start(emulator: emulator, settings: settings, waitFor: status)
    } catch {
        await emulator.stop()
        throw error
    }
    do {
        try await body(emulator, daemon)
    } catch {
        await daemon.cleanUp()
        await emulator.stop()
        throw error
    }
    await daemon.cleanUp()
    await emulator.stop()
}
