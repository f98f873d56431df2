import Foundation
import SesameClient
import SesameLocalAPI
import SesameTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What a new user meets in the first hour with `sesamectl` (issue 24): advice that fits the
/// command, the one-time code, a confirmed delete-account, and the CLI's manners.
@Suite("sesamectl end to end: the first hour", .serialized, .timeLimit(.minutes(3)))
struct SesamectlFirstHourTests: SesamectlTestHelpers {
    @Test("verify-email as a guest says to sign up; a spent link says to request a new one")
    func adviceFitsTheCommand() async throws {
        try await withDaemon { emulator, daemon in
            let verify = try await daemon.ctl(["verify-email"])
            #expect(verify.status == 1, "\(verify)")
            let advice = oneLine(verify)
            #expect(advice.contains("`sesamectl sign-up EMAIL`"), "\(advice)")
            #expect(!advice.contains("--email"), "\(advice)")

            #expect(try await daemon.ctl(["send-link", "lee@example.com"]).status == 0)
            let link = try #require(try await emulator.oobLink(email: "lee@example.com"))
            #expect(try await daemon.ctl(["complete-link", link]).status == 0)
            // From a guest again: over an account, the sign-in rule answers before the link is looked at.
            #expect(try await daemon.ctl(["sign-out"]).status == 0)
            let again = try await daemon.ctl(["complete-link", link])
            #expect(again.status == 1)
            #expect(oneLine(again).contains("run `sesamectl send-link EMAIL` for a new one"), "\(again.stderr)")
            let spent = try await daemon.ctl(["complete-link", link, "--email", "lee@example.com"])
            #expect(spent.status == 1)
            #expect(oneLine(spent).contains("sesamectl send-link"), "\(spent.stderr)")
            #expect(!spent.stderr.contains("--email"), "\(spent.stderr)")
        }
    }

    @Test(
        "complete-link --code: signs in on Supabase; on Firebase says to use the link", arguments: TestBackend.allCases)
    func oneTimeCode(backend: TestBackend) async throws {
        try await withEmulatorAndDaemon(backend: backend) { emulator, daemon in
            let usage = try await daemon.ctl(["complete-link", "--code", "123456"])
            #expect(usage.status == 2, "\(usage)")
            #expect(oneLine(usage).contains("--email EMAIL"))
            #expect(try await daemon.ctl(["complete-link"]).status == 2)

            #expect(try await daemon.ctl(["send-link", "kim@example.com"]).status == 0)
            switch backend {
            case .supabase:
                // A second mail within GoTrue's minute is a rate limit, told as such, with GoTrue's own wait.
                let twice = try await daemon.ctl(["send-link", "kim@example.com"])
                #expect(twice.status == 1, "\(twice)")
                let told = oneLine(twice)
                #expect(told.contains("the backend limits how often this can be done"), "\(told)")
                let wait = told.split(separator: " ").firstIndex(of: "in").map { told.split(separator: " ")[$0 + 1] }
                #expect(wait.flatMap { Int($0) }.map { (30...60).contains($0) } == true, "\(told)")
                let code = try #require(try await emulator.oneTimeCode(email: "kim@example.com"))
                let done = try await daemon.ctl(["complete-link", "--code", code, "--email", "kim@example.com"])
                #expect(done.status == 0, "\(done)")
                #expect(done.stdout.hasPrefix("signed in as kim@example.com (uid "), "\(done.stdout)")
                let state = try await daemon.stateJSON()
                #expect((state["user"] as? [String: Any])?["email"] as? String == "kim@example.com")
                #expect(try await daemon.ctl(["sign-out"]).status == 0)
                let reused = try await daemon.ctl(["complete-link", "--code", code, "--email", "kim@example.com"])
                #expect(reused.status == 1, "\(reused)")
                #expect(oneLine(reused).contains("sesamectl send-link"), "\(reused.stderr)")
            case .firebase:
                let refused = try await daemon.ctl(["complete-link", "--code", "123456", "--email", "kim@example.com"])
                #expect(refused.status == 1, "\(refused)")
                let advice = oneLine(refused)
                #expect(advice.contains("sends sign-in links, not codes"), "\(advice)")
                #expect(advice.contains("sesamectl complete-link URL"), "\(advice)")
            }
        }
    }

    @Test("delete-account without a terminal needs --yes; with it, the account and then a guest go")
    func deleteAccountAsksFirst() async throws {
        try await withDaemon { emulator, daemon in
            let guest = try #require(try await daemon.uid())
            let guestRefused = try await daemon.ctl(["delete-account"])
            #expect(guestRefused.status == 2, "\(guestRefused)")
            #expect(oneLine(guestRefused).contains("add --yes"), "\(guestRefused.stderr)")
            #expect(try await daemon.uid() == guest)

            #expect(
                try await daemon.ctl(["sign-up", "max@example.com", "--password-stdin"], stdin: "secret-1\n").status
                    == 0)
            let refused = try await daemon.ctl(["delete-account", "--json"], stdin: "max@example.com\n")
            #expect(refused.status == 2, "\(refused)")
            #expect(oneLine(refused).contains("add --yes"))
            #expect(refused.stdout.isEmpty)
            #expect(try await emulator.accountExists(guest))
            #expect(try await daemon.uid() == guest)

            let deleted = try await daemon.ctl(["delete-account", "--yes"])
            #expect(deleted.status == 0, "\(deleted)")
            #expect(deleted.stdout.hasPrefix("account deleted; now anonymous guest (uid "), "\(deleted.stdout)")
            try await eventually("the account is gone") { try await !emulator.accountExists(guest) }
        }
    }

    @Test("delete-account on a terminal: the account's email confirms it, anything else does not; a guest takes y")
    func deleteAccountOnATerminal() async throws {
        // script(1) (util-linux) runs the command on a pseudo-terminal fed from our standard input.
        let script = "/usr/bin/script"
        try #require(FileManager.default.isExecutableFile(atPath: script), "script(1) is needed for a terminal")
        func onTerminal(_ daemon: DaemonProcess, answer: String) async throws -> CommandResult {
            try await runCommand(
                script, ["-qec", "'\(BuiltBinaries.path("sesamectl"))' delete-account", "/dev/null"],
                environment: ["SESAME_SOCKET": daemon.socketPath], stdin: answer + "\n")
        }
        try await withDaemon { emulator, daemon in
            let uid = try #require(try await daemon.uid())
            #expect(
                try await daemon.ctl(["sign-up", "ned@example.com", "--password-stdin"], stdin: "secret-1\n").status
                    == 0)
            let wrong = try await onTerminal(daemon, answer: "y")
            #expect(wrong.status == 1, "\(wrong)")
            #expect(wrong.stdout.contains("Type ned@example.com to confirm"), "\(wrong.stdout)")
            #expect(wrong.stdout.contains("not deleted"), "\(wrong.stdout)")
            #expect(try await emulator.accountExists(uid))
            #expect(try await daemon.uid() == uid)

            let confirmed = try await onTerminal(daemon, answer: "NED@example.com")
            #expect(confirmed.status == 0, "\(confirmed)")
            #expect(confirmed.stdout.contains("account deleted; now anonymous guest"), "\(confirmed.stdout)")
            try await eventually("the account is gone") { try await !emulator.accountExists(uid) }

            let guest = try #require(try await daemon.uid())
            let guestDeleted = try await onTerminal(daemon, answer: "y")
            #expect(guestDeleted.status == 0, "\(guestDeleted)")
            #expect(guestDeleted.stdout.contains("[y/N]"), "\(guestDeleted.stdout)")
            try await eventually("the guest is gone") { try await !emulator.accountExists(guest) }
        }
    }

    @Test("session-revoked says the daemon started a new guest session")
    func sessionRevoked() async throws {
        try await withDaemon { emulator, daemon in
            let uid = try #require(try await daemon.uid())
            try await emulator.deleteAccount(uid)
            let token = try await daemon.ctl(["token", "--force"])
            #expect(token.status == 1, "\(token)")
            let advice = oneLine(token)
            #expect(advice.contains("sesamed has started a new guest session"), "\(advice)")
            #expect(advice.contains("run the command again"), "\(advice)")
            try await eventually("a new guest") { try await daemon.uid().map { $0 != uid } ?? false }
            #expect(try await daemon.ctl(["token"]).status == 0)
        }
    }

    @Test("--version is the daemon's version; a typo gets a suggestion; options may come first")
    func manners() async throws {
        try await withDaemon { _, daemon in
            let client = daemon.client()
            let hello = try await client.hello()
            await client.close()
            let version = try await daemon.ctl(["--version"])
            #expect(version.status == 0, "\(version)")
            #expect(version.stdout == "sesamectl \(hello.version)\n")

            let typo = try await daemon.ctl(["stauts"])
            #expect(typo.status == 2)
            #expect(oneLine(typo).contains("did you mean `sesamectl status`?"), "\(typo.stderr)")
            let subTypo = try await daemon.ctl(["merges", "lsit"])
            #expect(subTypo.status == 2)
            #expect(oneLine(subTypo).contains("did you mean `sesamectl merges list`?"), "\(subTypo.stderr)")

            let first = try await runCommand(
                BuiltBinaries.path("sesamectl"), ["--socket", daemon.socketPath, "--json", "status"])
            #expect(first.status == 0, "\(first)")
            #expect(try object(first)["status"] as? String == "anonymous")

            let unknownOption = try await daemon.ctl(["status", "--frob"])
            #expect(unknownOption.status == 2)
            #expect(oneLine(unknownOption).hasSuffix("(see `sesamectl status --help`)"), "\(unknownOption.stderr)")
            let negative = try await daemon.ctl(["token", "--min-validity", "-1"])
            #expect(negative.status == 2)
            #expect(!negative.stderr.contains("--help"), "\(negative.stderr)")
        }
    }

    @Test("token --min-validity beyond the token's lifetime: the token alone on stdout, a warning on stderr")
    func tokenLongerThanItsLifetime() async throws {
        try await withDaemon { _, daemon in
            let token = try await daemon.ctl(["token", "--min-validity", "7200"])
            #expect(token.status == 0, "\(token)")
            let lines = token.stdout.split(separator: "\n")
            #expect(
                lines.count == 1 && lines[0].split(separator: ".", omittingEmptySubsequences: false).count == 3,
                "\(token.stdout)")
            #expect(oneLine(token).contains("the token is valid only for"), "\(token.stderr)")
            #expect(token.stderr.contains("--min-validity 7200"))
            let enough = try await daemon.ctl(["token", "--min-validity", "60"])
            #expect(enough.status == 0)
            #expect(enough.stderr.isEmpty, "\(enough.stderr)")
        }
    }

    @Test("watch prints the state on connecting and on every reconnect")
    func watchPrintsTheState() async throws {
        try await withDaemon { _, daemon in
            let uid = try #require(try await daemon.uid())
            let watch = try await ChildProcess(
                BuiltBinaries.path("sesamectl"), ["watch"], environment: ["SESAME_SOCKET": daemon.socketPath],
                logPrefix: daemon.directory + "/watch")
            defer { if watch.isRunning { watch.signal(SIGKILL) } }
            let line = "state: anonymous guest (uid \(uid))"
            try await eventually("watch prints the state") { watch.stdout.contains(line) }
            #expect(watch.stdout.hasPrefix(line + "\n"), "\(watch.stdout)")
            // After a restart the state is printed again, once per connection.
            try await daemon.kill()
            try await daemon.restart()
            try await eventually("watch reconnected", timeout: .seconds(30)) {
                watch.stderr.components(separatedBy: "connected to sesamed").count == 3
            }
            try await eventually("watch prints the state again") {
                watch.stdout.split(separator: "\n").filter { $0.hasPrefix("state: ") }.count == 2
            }
            watch.signal(SIGINT)
            #expect(try await watch.waitForExit() == 0)
        }
    }

    @Test("the README's Python example, run as a script, prints the token's uid and the state")
    func readmePythonExample() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let readme = try String(contentsOfFile: root + "/README.md", encoding: .utf8)
        let section = try #require(readme.range(of: "## Using Sesame from Python"))
        let start = try #require(readme.range(of: "```python\n", range: section.upperBound..<readme.endIndex))
        let end = try #require(readme.range(of: "\n```", range: start.upperBound..<readme.endIndex))
        let code = String(readme[start.upperBound..<end.lowerBound])
        try await withDaemon { _, daemon in
            let uid = try #require(try await daemon.uid())
            let python = try await ChildProcess(
                "/usr/bin/env", ["python3", "-u", "-c", code],
                environment: ["SESAME_SOCKET": daemon.socketPath, "PYTHONPATH": root + "/clients/python/src"],
                logPrefix: daemon.directory + "/python")
            defer { if python.isRunning { python.signal(SIGKILL) } }
            try await eventually("the example printed the token and the state") {
                python.stdout.contains("token for \(uid) valid until")
                    && python.stdout.contains("anonymous \(uid) snapshot")
            }
            #expect(try await daemon.ctl(["sign-out", "--reset"]).status == 0)
            try await eventually("the example printed the change") { python.stdout.contains("reset") }
            #expect(python.isRunning, "the example follows the session until stopped")
            #expect(python.stderr.isEmpty, "\(python.stderr)")
        }
    }
}
