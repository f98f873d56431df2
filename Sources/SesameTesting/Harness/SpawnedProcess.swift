import Foundation
import Subprocess
import Synchronization

#if canImport(System)
import System
#else
import SystemPackage
#endif

/// A child process of a test, started with swift-subprocess rather than Foundation's `Process`.
///
/// Foundation's `Process.run()` on Linux lists `/proc/self/fd` to close every inherited
/// descriptor and copies each directory entry whole (256 bytes), past the end of glibc's
/// buffer: with a thousand descriptors open (hundreds of parallel tests, each with its
/// listeners) the copy crosses into an unmapped page and the whole test runner dies of SIGSEGV
/// (seen in CI and here, `__memcpy_avx512_unaligned_erms` under `Process.run()`). Subprocess
/// closes them in the child with `close_range`, and waits on a pidfd, so nothing reads that list.
///
/// Every standard stream is a file or `/dev/null`, opened here close-on-exec, so no other test's
/// child inherits it; the child gets its own copies and ours are closed once it has started.
public final class SpawnedProcess: Sendable {
    /// Where a standard stream of the child goes, or comes from.
    public enum Stream: Sendable {
        case null
        case file(String)
        /// A descriptor the caller owns; the child gets a copy and the caller's stays open.
        case descriptor(Int32)
    }

    /// How the child ended: its exit code, or the signal that killed it.
    public enum Ending: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    /// What the launching task and the process share: how the child ended, and the start's waiter.
    private final class Shared: Sendable {
        let ending = Mutex<Ending?>(nil)
        let started = Mutex<CheckedContinuation<Int32, any Error>?>(nil)

        func resume(_ result: Result<Int32, any Error>) {
            started.withLock { pending in
                pending?.resume(with: result)
                pending = nil
            }
        }
    }

    public let processIdentifier: Int32
    private let shared: Shared

    private init(processIdentifier: Int32, shared: Shared) {
        self.processIdentifier = processIdentifier
        self.shared = shared
    }

    /// The child has not ended (or has not been reaped yet).
    public var isRunning: Bool { end == nil }
    /// How it ended; nil while it runs.
    public var end: Ending? { shared.ending.withLock { $0 } }
    /// The shell's convention: the exit code, or 128 + the signal; nil while it runs.
    public var exitStatus: Int32? {
        switch end {
        case .exited(let code): code
        case .signalled(let signal): 128 + signal
        case nil: nil
        }
    }

    /// Sends `signal` to the child.
    public func signal(_ signal: Int32) { _ = kill(processIdentifier, signal) }

    /// Starts `executable` with exactly `environment` and returns once it runs.
    public static func launch(
        _ executable: String, _ arguments: [String], environment: [String: String],
        stdin: Stream = .null, stdout: Stream = .null, stderr: Stream = .null
    ) async throws -> SpawnedProcess {
        var streams: [FileDescriptor] = []
        do {
            for (stream, writing) in [(stdin, false), (stdout, true), (stderr, true)] {
                streams.append(try open(stream, writing: writing))
            }
        } catch {
            for descriptor in streams { try? descriptor.close() }
            throw error
        }
        let (input, output, error) = (streams[0], streams[1], streams[2])
        let shared = Shared()
        var options = PlatformOptions()
        // A session of its own, so no controlling terminal: a child that asks on /dev/tty (a
        // password, a code) meets no terminal whether the tests run in one or not (make test
        // under script(1) in CI), unless a test gives it one (script).
        options.createSession = true
        let configuration = Configuration(
            executable: .path(FilePath(executable)), arguments: Arguments(arguments),
            environment: .custom(Dictionary(uniqueKeysWithValues: environment.map { (.init(stringLiteral: $0), $1) })),
            platformOptions: options)
        let pid = try await withCheckedThrowingContinuation { continuation in
            shared.started.withLock { $0 = continuation }
            Task.detached {
                do {
                    let result = try await Subprocess.run(
                        configuration, input: .fileDescriptor(input, closeAfterSpawningProcess: true),
                        output: .fileDescriptor(output, closeAfterSpawningProcess: true),
                        error: .fileDescriptor(error, closeAfterSpawningProcess: true)
                    ) { execution in shared.resume(.success(execution.processIdentifier.value)) }
                    shared.ending.withLock { $0 = Ending(result.terminationStatus) }
                } catch {
                    shared.resume(.failure(error))
                    shared.ending.withLock { $0 = $0 ?? .exited(-1) }
                }
            }
        }
        return SpawnedProcess(processIdentifier: pid, shared: shared)
    }

    /// This test process's environment with `changes` applied (nil removes a variable).
    public static func environment(_ changes: [String: String?] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in changes { environment[name] = value }
        return environment
    }

    private static func open(_ stream: Stream, writing: Bool) throws -> FileDescriptor {
        let mode: FileDescriptor.AccessMode = writing ? .writeOnly : .readOnly
        switch stream {
        case .null:
            return try FileDescriptor.open("/dev/null", mode, options: [.closeOnExec])
        case .file(let path):
            return try FileDescriptor.open(
                FilePath(path), mode, options: writing ? [.closeOnExec, .create, .append] : [.closeOnExec],
                permissions: writing ? [.ownerReadWrite] : nil)
        case .descriptor(let descriptor):
            let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
            guard copy >= 0 else { throw HarnessError("cannot copy descriptor \(descriptor): errno \(errno)") }
            return FileDescriptor(rawValue: copy)
        }
    }
}

extension SpawnedProcess.Ending {
    init(_ status: TerminationStatus) {
        switch status {
        case .exited(let code): self = .exited(code)
        case .signaled(let signal): self = .signalled(signal)
        }
    }
}

/// Waits until `process` has ended, polling, so no thread is held meanwhile.
public func waitForExit(of process: SpawnedProcess, timeout: Duration = .seconds(30)) async throws {
    try await eventually("process \(process.processIdentifier) exits", timeout: timeout) { !process.isRunning }
}
