import Foundation
import SesameLocalAPI
import SesameTesting

#if canImport(Glibc)
import Glibc
#endif

/// A client that is another process (socat, given its addresses here): it sends `lines` and
/// keeps the connection open (`shut-none`) until ended; its answers are read from its output.
struct PeerClient {
    let process: SpawnedProcess
    let directory: String

    static func start(_ command: [String], sending lines: [String], to socket: String) async throws -> PeerClient {
        let directory = try makeTemporaryDirectory("peer")
        try (lines.joined(separator: "\n") + "\n").write(
            toFile: directory + "/in", atomically: true, encoding: .utf8)
        return try await start(command, input: .file(directory + "/in"), to: socket, directory: directory)
    }

    /// A client that sends whatever the test writes to `input` (a pipe's read end), when it writes it.
    static func start(_ command: [String], input: Int32, to socket: String) async throws -> PeerClient {
        try await start(command, input: .descriptor(input), to: socket, directory: try makeTemporaryDirectory("peer"))
    }

    private static func start(
        _ command: [String], input: SpawnedProcess.Stream, to socket: String, directory: String
    ) async throws -> PeerClient {
        let process = try await SpawnedProcess.launch(
            command[0], Array(command.dropFirst()) + ["-t", "60", "-", "UNIX-CONNECT:\(socket),shut-none"],
            environment: SpawnedProcess.environment(), stdin: input, stdout: .file(directory + "/out"))
        return PeerClient(process: process, directory: directory)
    }

    /// The answers read so far, one per complete line.
    var answers: [JSONValue] {
        guard let text = try? String(contentsOfFile: directory + "/out", encoding: .utf8) else { return [] }
        let complete = text.hasSuffix("\n") ? text : String(text[..<(text.lastIndex(of: "\n") ?? text.startIndex)])
        return complete.split(separator: "\n").compactMap { try? JSONValue.parse(String($0)) }
    }

    /// Waits for `count` answers (or the client's end) and returns them.
    func awaitAnswers(_ count: Int = 1) async throws -> [JSONValue] {
        try await eventually("the client has \(count) answers or ended", timeout: .seconds(30)) {
            answers.count >= count || !process.isRunning
        }
        return answers
    }

    func stop() {
        process.signal(SIGKILL)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs `command` for one request and returns its answer.
    static func call(_ command: [String], _ line: String, socket: String) async throws -> JSONValue? {
        let client = try await start(command, sending: [line], to: socket)
        defer { client.stop() }
        return try await client.awaitAnswers().first
    }
}
