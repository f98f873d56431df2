import Foundation
import SesameTesting

#if canImport(Glibc)
import Glibc
#endif

/// A command a test talks to as a person at a terminal would: it reads what the command printed
/// so far and answers on its standard input (a code that depends on a secret it just printed).
extension DaemonProcess {
    /// Runs `sesamectl arguments`; while it runs, `answer` sees its output so far and returns
    /// the next line to type (nil: nothing yet). Each answer is typed once; standard input is
    /// closed when the command exits.
    func interactiveCtl(
        _ arguments: [String], timeout: Duration = .seconds(60), answer: @escaping (String) throws -> String?
    ) async throws -> CommandResult {
        let directory = try makeTemporaryDirectory("tty")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (out, err) = (directory + "/out", directory + "/err")
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        // A pipe of our own, close-on-exec, so no other test's child inherits it; the child gets
        // a copy of the read end as its standard input.
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw HarnessError("pipe() failed: errno \(errno)") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let input = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
        let process: SpawnedProcess
        do {
            defer { close(ends[0]) }
            process = try await SpawnedProcess.launch(
                BuiltBinaries.path("sesamectl"), arguments,
                environment: SpawnedProcess.environment(["SESAME_SOCKET": socketPath]),
                stdin: .descriptor(ends[0]), stdout: .file(out), stderr: .file(err))
        }
        var typed = Set<String>()
        defer { try? input.close() }
        try await eventually("sesamectl \(arguments.first ?? "") exits", timeout: timeout) {
            let printed = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
            let said = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
            if process.isRunning, let line = try answer(printed + said), !typed.contains(line) {
                typed.insert(line)
                try input.write(contentsOf: Data((line + "\n").utf8))
            }
            return !process.isRunning
        }
        return CommandResult(
            status: process.exitStatus ?? -1,
            stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
    }
}
