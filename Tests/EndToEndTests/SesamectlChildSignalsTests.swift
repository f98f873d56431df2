import Foundation
import SesameTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What a command sesamectl starts inherits (issue 31, 6b and 8): `exec`'s command and the
/// browser of `sign-in --browser` start with no signal blocked and none ignored, so `timeout`
/// stops them and a shell's `wait` returns; "opened … in your browser" only when one started.
@Suite("sesamectl's children: signals and the browser", .serialized, .timeLimit(.minutes(3)))
struct SesamectlChildSignalsTests: SesamectlTestHelpers {
    /// `SigBlk` and `SigIgn` of /proc/PID/status, as written by a child, for the standard
    /// signals (1-31). Signals 32 and 33 are glibc's own (thread cancellation, setxid): no program
    /// can change them, and this test runner's children inherit them ignored.
    static func masks(_ status: String) -> [String: UInt64] {
        var masks: [String: UInt64] = [:]
        for line in status.split(separator: "\n") where line.hasPrefix("SigBlk:") || line.hasPrefix("SigIgn:") {
            let parts = line.split(separator: ":", maxSplits: 1)
            let bits = UInt64(parts[1].trimmingCharacters(in: .whitespaces), radix: 16) ?? .max
            masks[String(parts[0])] = bits & 0x7FFF_FFFF
        }
        return masks
    }

    static let clear: [String: UInt64] = ["SigBlk": 0, "SigIgn": 0]

    @Test("exec: the command starts with no signal blocked or ignored; timeout stops it; a shell's wait returns")
    func execSignals() async throws {
        try await withDaemon { _, daemon in
            let status = try await daemon.ctl(["exec", "--", "cat", "/proc/self/status"])
            #expect(status.status == 0, "\(status.stderr)")
            #expect(Self.masks(status.stdout) == Self.clear, "\(status.stdout)")

            // SIGTERM from timeout ends the command (124); -k: a SIGKILL later if it did not.
            let ctl = BuiltBinaries.path("sesamectl")
            let stopped = try await runCommand(
                "/usr/bin/timeout", ["-k", "20", "2", ctl, "exec", "--socket", daemon.socketPath, "--", "sleep", "100"])
            #expect(stopped.status == 124, "\(stopped)")

            // The shell's wait hears its child end (SIGCHLD not blocked).
            let waited = try await runCommand(
                "/usr/bin/timeout",
                [
                    "-k", "5", "30", ctl, "exec", "--socket", daemon.socketPath, "--", "sh", "-c",
                    "sleep 0.2 & wait; echo waited",
                ])
            #expect(waited.status == 0 && waited.stdout == "waited\n", "\(waited)")
        }
    }

    @Test("sign-in --browser: the browser starts with no signal blocked or ignored; 'opened' only once it started")
    func browserSignals() async throws {
        try await withEmulatorAndDaemon { emulator, daemon in
            try await emulator.configureIdentityProviders(intervalSeconds: 1)
            let directory = try makeTemporaryDirectory("browser")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let browser = directory + "/browser"
            // The shell reads its own status with builtins: a child (cat) could read it while dash
            // blocks every signal around its vfork.
            let script = """
                #!/bin/sh
                while read -r line; do echo "$line"; done < /proc/$$/status > \(directory)/status.part
                mv \(directory)/status.part \(directory)/status

                """
            try script.write(toFile: browser, atomically: true, encoding: .utf8)
            chmod(browser, 0o755)
            let opened = try await ChildProcess(
                BuiltBinaries.path("sesamectl"), ["sign-in", "google", "--browser", "--socket", daemon.socketPath],
                environment: ["BROWSER": browser], logPrefix: directory + "/opened")
            try await eventually("the browser ran and sesamectl said so") {
                FileManager.default.fileExists(atPath: directory + "/status")
                    && opened.stderr.contains("opened the google.com sign-in page in your browser")
            }
            let status = try String(contentsOfFile: directory + "/status", encoding: .utf8)
            #expect(Self.masks(status) == Self.clear, "\(status)")
            #expect(!opened.stdout.contains("Open this URL"))
            opened.signal(SIGINT)
            #expect(try await opened.waitForExit() == 130)

            // No browser: the URL to open by hand, and no claim that one opened.
            let none = try await ChildProcess(
                BuiltBinaries.path("sesamectl"), ["sign-in", "google", "--browser", "--socket", daemon.socketPath],
                environment: ["BROWSER": "/bin/false", "PATH": directory + "/empty"], logPrefix: directory + "/none")
            try await eventually("sesamectl gave the URL") { none.stdout.contains("Open this URL in a browser: ") }
            #expect(!none.stderr.contains("opened") && !none.stderr.contains("opening"), "\(none.stderr)")
            none.signal(SIGINT)
            #expect(try await none.waitForExit() == 130)
        }
    }
}
