import Foundation
import SesameTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Where the built `sesamed` logs: journald only when `$JOURNAL_STREAM` names its very stderr
/// (systemd's convention), readable lines on stderr otherwise (`make run`, a terminal).
@Suite("sesamed log sink")
struct DaemonLogTests {
    @Test("without JOURNAL_STREAM, readable lines on stderr: no <N> prefix, the sentence, then key=value")
    func plainLinesWithoutJournalStream() async throws {
        let log = try await daemonLog(journalStream: .unset)
        let ready = try #require(log.split(separator: "\n").first { $0.contains("sesamed is ready") }, "\(log)")
        #expect(ready.hasPrefix("sesamed: sesamed is ready backend="), "\(ready)")
        #expect(ready.contains(#" socket="/tmp/"#), "\(ready)")
        #expect(!log.split(separator: "\n").contains { $0.hasPrefix("<") }, "\(log)")
    }

    @Test("an inherited JOURNAL_STREAM that names another file changes nothing (a terminal under a user service)")
    func inheritedJournalStreamIsIgnored() async throws {
        let log = try await daemonLog(journalStream: .other)
        #expect(log.contains("sesamed: sesamed is ready backend="), "\(log)")
        #expect(!log.split(separator: "\n").contains { $0.hasPrefix("<") }, "\(log)")
    }

    @Test("a JOURNAL_STREAM naming stderr: the journal (or <N> lines for journald's stream without its socket)")
    func matchingJournalStreamMeansJournald() async throws {
        let log = try await daemonLog(journalStream: .standardError)
        if access("/run/systemd/journal/socket", F_OK) == 0 {
            #expect(!log.contains("sesamed is ready"), "\(log)")
        } else {
            #expect(log.contains("<6>sesamed is ready backend="), "\(log)")
        }
    }

    enum JournalStream { case unset, other, standardError }

    /// Starts `sesamed` (through `sh`, which sets `$JOURNAL_STREAM` as asked), waits until it
    /// serves, stops it, and returns its stderr.
    private func daemonLog(journalStream: JournalStream) async throws -> String {
        let emulator = try await EmulatorProcess.start()
        let directory = try makeTemporaryDirectory("log")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var toml = "[socket]\npath = \"\(directory)/s.sock\"\n"
        for (section, keys) in DaemonProcess.backendSettings(emulator) {
            toml += "[\(section)]\n" + keys.map { "\($0.key) = \($0.value)\n" }.joined()
        }
        try toml.write(toFile: directory + "/sesamed.toml", atomically: true, encoding: .utf8)
        let variable =
            switch journalStream {
            case .unset: "unset JOURNAL_STREAM;"
            case .other: "export JOURNAL_STREAM=1:2;"
            case .standardError: "export JOURNAL_STREAM=$(stat -L -c %d:%i /proc/self/fd/2);"
            }
        let daemon = try await ChildProcess(
            "/bin/sh",
            [
                "-c", "\(variable) exec \"$0\" --config \"$1/sesamed.toml\" --state-dir \"$1/state\"",
                BuiltBinaries.path("sesamed"), directory,
            ],
            logPrefix: directory + "/sesamed")
        do {
            try await eventually("sesamed answers on its socket") {
                let status = try await runCommand(
                    BuiltBinaries.path("sesamectl"), ["status", "--json"],
                    environment: ["SESAME_SOCKET": directory + "/s.sock"])
                return status.status == 0
            }
        } catch {
            daemon.signal(SIGKILL)
            await emulator.stop()
            throw HarnessError("\(error); stderr: \(daemon.stderr)")
        }
        daemon.signal(SIGTERM)
        _ = try await daemon.waitForExit()
        await emulator.stop()
        return daemon.stderr
    }
}
