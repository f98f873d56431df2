import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A child process whose stdout and stderr go to files, so a test can read them at any time.
public final class ChildProcess: @unchecked Sendable {
    public let process = Process()
    public let stdoutPath: String
    public let stderrPath: String
    private var handles: [FileHandle] = []

    /// Starts `executable`; its stdout and stderr go to `logPrefix.out` and `logPrefix.err`. The
    /// environment is this process's, without the variables of systemd, sesamed and the
    /// Firebase tools that would change what the child does, plus `environment`.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], logPrefix: String
    ) throws {
        stdoutPath = logPrefix + ".out"
        stderrPath = logPrefix + ".err"
        _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for name in [
            "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES",
            "JOURNAL_STREAM", "SESAME_SOCKET", "FIREBASE_AUTH_EMULATOR_HOST", "FIREBASE_DATABASE_EMULATOR_HOST",
            "STATE_DIRECTORY", "CREDENTIALS_DIRECTORY",
        ] {
            env[name] = nil
        }
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        handles = [out, err]
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            closeHandles()
            throw error
        }
        // The child has its own copies now; the runner must not keep a descriptor per child
        // (hundreds of tests run in one process).
        closeHandles()
    }

    private func closeHandles() {
        for handle in handles { try? handle.close() }
        handles = []
    }

    public var pid: Int32 { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }
    public var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    public var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    public func signal(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits for the process to end and returns its exit status (128+N for a signal).
    public func waitForExit(timeout: Duration = .seconds(20)) async throws -> Int32 {
        try await eventually("process \(pid) exits", timeout: timeout) { !process.isRunning }
        return process.terminationReason == .uncaughtSignal
            ? 128 + process.terminationStatus : process.terminationStatus
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
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    env["SESAME_SOCKET"] = nil
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let out = directory + "/out", err = directory + "/err", input = directory + "/in"
    _ = FileManager.default.createFile(atPath: out, contents: nil)
    _ = FileManager.default.createFile(atPath: err, contents: nil)
    _ = FileManager.default.createFile(atPath: input, contents: Data((stdin ?? "").utf8))
    let handles = [
        try FileHandle(forWritingTo: URL(fileURLWithPath: out)),
        try FileHandle(forWritingTo: URL(fileURLWithPath: err)),
        try FileHandle(forReadingFrom: URL(fileURLWithPath: input)),
    ]
    // The child has its own copies once started; close ours so the runner leaks no descriptor.
    defer { for handle in handles { try? handle.close() } }
    process.standardOutput = handles[0]
    process.standardError = handles[1]
    process.standardInput = handles[2]
    try process.run()
    for handle in handles { try? handle.close() }
    try await eventually("\(executable) exits", timeout: timeout) { !process.isRunning }
    return CommandResult(
        status: process.terminationStatus,
        stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
        stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
}

/// Waits until `process` has ended, polling, so no thread is held meanwhile. Never call
/// `Process.waitUntilExit()` from a test: Foundation reaps children on the same dispatch
/// threads that run the tests' tasks, and on a two-core machine two tests blocked in it held
/// both, so neither child was ever reaped and `make test` hung (a killed writer left a zombie).
public func waitForExit(of process: Process, timeout: Duration = .seconds(30)) async throws {
    try await eventually("process \(process.processIdentifier) exits", timeout: timeout) { !process.isRunning }
}
