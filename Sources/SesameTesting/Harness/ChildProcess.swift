import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A child process whose stdout and stderr go to files, so a test can read them at any time.
public final class ChildProcess: Sendable {
    public let process: SpawnedProcess
    public let stdoutPath: String
    public let stderrPath: String

    /// Starts `executable`; its stdout and stderr go to `logPrefix.out` and `logPrefix.err`. The
    /// environment is this process's, without the variables of systemd, sesamed and the
    /// Firebase tools that would change what the child does, plus `environment`.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], logPrefix: String
    ) async throws {
        stdoutPath = logPrefix + ".out"
        stderrPath = logPrefix + ".err"
        _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        var env = ProcessInfo.processInfo.environment
        for name in [
            "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES",
            "JOURNAL_STREAM", "SESAME_SOCKET", "FIREBASE_AUTH_EMULATOR_HOST", "FIREBASE_DATABASE_EMULATOR_HOST",
            "STATE_DIRECTORY", "CREDENTIALS_DIRECTORY",
        ] {
            env[name] = nil
        }
        for (key, value) in environment { env[key] = value }
        process = try await SpawnedProcess.launch(
            executable, arguments, environment: env, stdout: .file(stdoutPath), stderr: .file(stderrPath))
    }

    public var pid: Int32 { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }
    public var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    public var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    public func signal(_ signal: Int32) { process.signal(signal) }

    /// Waits for the process to end and returns its exit status (128+N for a signal).
    public func waitForExit(timeout: Duration = .seconds(20)) async throws -> Int32 {
        try await eventually("process \(pid) exits", timeout: timeout) { !process.isRunning }
        return process.exitStatus ?? -1
    }
}

/// A command's exit status and output.
public struct CommandResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }
}

/// Runs a command to completion and returns its exit status and output.
public func runCommand(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:], stdin: String? = nil,
    timeout: Duration = .seconds(30)
) async throws -> CommandResult {
    let directory = try makeTemporaryDirectory("cmd")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var env = ProcessInfo.processInfo.environment
    env["SESAME_SOCKET"] = nil
    for (key, value) in environment { env[key] = value }
    let out = directory + "/out", err = directory + "/err", input = directory + "/in"
    _ = FileManager.default.createFile(atPath: input, contents: Data((stdin ?? "").utf8))
    let process = try await SpawnedProcess.launch(
        executable, arguments, environment: env, stdin: .file(input), stdout: .file(out), stderr: .file(err))
    try await eventually("\(executable) exits", timeout: timeout) { !process.isRunning }
    return CommandResult(
        status: process.exitStatus ?? -1,
        stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
        stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
}
