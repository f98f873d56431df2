import Foundation
import SesameTesting
import Testing

@testable import SesameKeyring

/// A second process that holds a keyring and rewrites it in a loop: this test binary run
/// again with ``WriterProcess/variable`` set and a filter that selects only
/// ``WriterProcessEntry/writeForever()``.
struct WriterProcess {
    /// Names the keyring the child writes; unset in normal test runs.
    static let variable = "SESAME_KEYRING_TEST_WRITER"
    /// The tag prefix of every state the child writes.
    static let tag = "writer-"

    let process: SpawnedProcess

    /// Starts the child for `keyringPath`.
    static func start(keyringPath: String) async throws -> WriterProcess {
        let process = try await SpawnedProcess.launch(
            try executablePath(), ["--testing-library", "swift-testing", "--filter", "WriterProcessEntry"],
            environment: SpawnedProcess.environment([variable: keyringPath]))
        return WriterProcess(process: process)
    }

    /// Kills the child with SIGKILL and waits until it is reaped (without holding a thread:
    /// see SesameTesting's `waitForExit`).
    func kill() async throws {
        process.signal(SIGKILL)
        try await waitForExit(of: process)
    }

    /// Waits until the inode of `path` differs from `inode` (the child replaced the file).
    /// - Returns: false if that did not happen within `timeout` or the child exited.
    func awaitReplacement(of path: String, from inode: UInt?, timeout: Duration = .seconds(30)) async throws -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while clock.now < deadline {
            if Self.inode(path) != inode { return true }
            if !process.isRunning { return false }
            try await Task.sleep(for: .milliseconds(1))
        }
        return false
    }

    static func inode(_ path: String) -> UInt? {
        var info = stat()
        return stat(path, &info) == 0 ? UInt(info.st_ino) : nil
    }

    private static func executablePath() throws -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { throw POSIXError(.ENOENT) }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// The child's side of ``WriterProcess``: does nothing unless the variable is set.
@Suite struct WriterProcessEntry {
    @Test func writeForever() async throws {
        guard let path = ProcessInfo.processInfo.environment[WriterProcess.variable] else { return }
        let store = try EncryptedFileSessionStore.open(path: path, environment: [:])
        _ = try await store.load()
        var round = 0
        while true {
            // About 48 KiB per write, so a kill often lands in the middle of one.
            try await store.save(Fixtures.tagged("\(WriterProcess.tag)\(round)-", size: 48 * 1024))
            round += 1
        }
    }
}
