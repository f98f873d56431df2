import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The built `sesame-emulator` run as a child process (the Supabase surface is reached through
/// its command line and printed lines, the shared contract), stdout and stderr in files.
final class EmulatorBinary: @unchecked Sendable {
    let process = Process()
    let directory: String

    /// `$SESAME_BIN_DIR` (set by `make test`), else next to the test binary, else `.build/debug`.
    static let binDirectory: String = {
        if let dir = ProcessInfo.processInfo.environment["SESAME_BIN_DIR"], !dir.isEmpty { return dir }
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if FileManager.default.isExecutableFile(atPath: beside.appendingPathComponent("sesame-emulator").path) {
            return beside.path
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug").path
    }()

    init(arguments: [String]) throws {
        directory = "/tmp/pc-\(UUID().uuidString.prefix(8).lowercased())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: directory + "/out", contents: nil)
        _ = FileManager.default.createFile(atPath: directory + "/err", contents: nil)
        process.executableURL = URL(fileURLWithPath: Self.binDirectory + "/sesame-emulator")
        process.arguments = arguments
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: directory + "/out"))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: directory + "/err"))
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        defer {
            try? out.close()
            try? err.close()
        }
        try process.run()
    }

    var stdout: String { (try? String(contentsOfFile: directory + "/out", encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOfFile: directory + "/err", encoding: .utf8)) ?? "" }

    /// The rest of the first stdout line starting with `prefix`, waiting (bounded) for it.
    func line(after prefix: String, timeout: Duration = .seconds(30)) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let line = stdout.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) {
                return String(line.dropFirst(prefix.count))
            }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw EmulatorBinaryError(
            "sesame-emulator printed no line starting with \"\(prefix)\"; stderr: \(stderr.suffix(500))")
    }

    func stop() async {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        let deadline = ContinuousClock.now + .seconds(20)
        while process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(atPath: directory)
    }
}

struct EmulatorBinaryError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
