import Foundation
import SesameLocalAPI
import SesameTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `sesamectl` as a person and a script use it, against the built `sesamed` and
/// `sesame-emulator` (issue 4): bad input, a daemon that goes away, `watch`, the Python
/// example, completions and the man page.
@Suite("sesamectl end to end", .serialized, .timeLimit(.minutes(3)))
struct SesamectlTests: SesamectlTestHelpers {
    @Test("bad usage exits 2 with one line; a missing socket exits 69 naming it")
    func badUsageAndMissingSocket() async throws {
        let ctl = BuiltBinaries.path("sesamectl")
        let missing = "/tmp/no-such-dir-\(UUID().uuidString.prefix(6))/s.sock"
        for arguments in [
            ["frobnicate"], ["status", "--frobnicate"], ["sign-in"], ["sign-in-idp", "google.com"],
            ["token", "--min-validity", "soon"], ["merges", "complete"], ["link"], ["username", "check"],
            ["sign-in", "ann@example.com", "--password", "x"], ["token", "--min-validity", "-1"],
        ] {
            let result = try await runCommand(ctl, arguments, environment: ["SESAME_SOCKET": missing])
            #expect(result.status == 2, "\(arguments): \(result)")
            _ = oneLine(result)
            #expect(result.stdout.isEmpty, "\(arguments)")
        }
        for arguments in [["status"], ["token"], ["status", "--json"], ["watch"], ["sign-out", "--reset"]] {
            let result = try await runCommand(ctl, arguments, environment: ["SESAME_SOCKET": missing])
            #expect(result.status == 69, "\(arguments): \(result)")
            #expect(oneLine(result).contains(missing), "\(arguments)")
            #expect(result.stdout.isEmpty)
        }
        // --socket wins over $SESAME_SOCKET.
        let flag = try await runCommand(
            ctl, ["status", "--socket", missing + "2"], environment: ["SESAME_SOCKET": missing])
        #expect(flag.status == 69)
        #expect(oneLine(flag).contains(missing + "2"))
        // A password is never read from a closed standard input.
        let empty = try await runCommand(
            ctl, ["sign-in", "a@example.com", "--password-stdin"], environment: ["SESAME_SOCKET": missing])
        #expect(empty.status == 69)
        // Help and completions work without a daemon.
        let help = try await runCommand(ctl, ["status", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--socket"))
    }

    @Test("a daemon that hangs up mid-call: one clear line, non-zero")
    func hangUp() async throws {
        let directory = try makeTemporaryDirectory("hup")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/s.sock"
        // A server that closes without answering: after reading what came ("fin"), or with
        // unread bytes, which resets the connection ("reset").
        let script = """
            import socket, sys, time
            s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(8); print("ready", flush=True)
            while True:
                c, _ = s.accept()
                if sys.argv[2] == "reset":
                    c.recv(1); time.sleep(0.2); c.close()
                else:
                    c.recv(65536); c.shutdown(socket.SHUT_RDWR); c.close()
            """
        for mode in ["fin", "reset"] {
            let path = socket + "." + mode
            let server = try await ChildProcess(
                "/usr/bin/env", ["python3", "-c", script, path, mode], logPrefix: directory + "/server." + mode)
            defer { server.signal(SIGKILL) }
            try await eventually("the fake server listens") { server.stdout.contains("ready") }
            for arguments in [["status"], ["token"], ["sign-out", "--reset", "--json"]] {
                let result = try await runCommand(
                    BuiltBinaries.path("sesamectl"), arguments, environment: ["SESAME_SOCKET": path])
                #expect(result.status == 69, "\(mode) \(arguments): \(result)")
                #expect(oneLine(result).contains("closed the connection"), "\(mode): \(result.stderr)")
                #expect(result.stdout.isEmpty)
            }
        }
    }

    @Test("the real daemon killed during a call: one clear line, exit 69")
    func daemonDiesMidCall() async throws {
        try await withDaemon { emulator, daemon in
            try await emulator.faults([
                "latencyMs": 5000, "pathPrefix": "/identitytoolkit.googleapis.com/v1/accounts:signUp",
            ])
            async let signUp = daemon.ctl(["sign-up", "ivy@example.com", "--password-stdin"], stdin: "secret-1\n")
            try await Task.sleep(for: .milliseconds(1500))
            try await daemon.kill()
            let result = try await signUp
            #expect(result.status == 69, "\(result)")
            #expect(oneLine(result).contains("closed the connection"), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
            try await emulator.clearFaults()
        }
    }

    @Test("watch and watch --json see another client's sign-out --reset; survive a restart; SIGINT exits 0")
    func watchSeesSignOut() async throws {
        try await withDaemon { _, daemon in
            let env = ["SESAME_SOCKET": daemon.socketPath]
            let human = try await ChildProcess(
                BuiltBinaries.path("sesamectl"), ["watch"], environment: env, logPrefix: daemon.directory + "/watch")
            let raw = try await ChildProcess(
                BuiltBinaries.path("sesamectl"), ["watch", "--json"], environment: env,
                logPrefix: daemon.directory + "/watchjson")
            defer {
                if human.isRunning { human.signal(SIGKILL) }
                if raw.isRunning { raw.signal(SIGKILL) }
            }
            // `connected` goes to standard error once the subscription is in place.
            try await eventually("both watchers are subscribed") {
                human.stderr.contains("connected to sesamed") && raw.stderr.contains("connected to sesamed")
            }
            let reset = try await daemon.ctl(["sign-out", "--reset"])
            #expect(reset.status == 0, "\(reset)")
            try await eventually("watch prints reset and anonymous-created") {
                human.stdout.contains("authStateChanged reset")
                    && human.stdout.contains("authStateChanged anonymous-created")
            }
            try await eventually("watch --json prints both notifications") {
                raw.stdout.contains("\"reset\"") && raw.stdout.contains("\"anonymous-created\"")
            }
            for line in raw.stdout.split(separator: "\n") {
                let message = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                #expect(message["jsonrpc"] as? String == "2.0")
                #expect(message["method"] is String)
                #expect((message["params"] as? [String: Any])?["sequence"] is Int)
            }
            let reasons = raw.stdout.split(separator: "\n").compactMap { line -> String? in
                let message = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                return (message?["params"] as? [String: Any])?["reason"] as? String
            }
            #expect(reasons == ["reset", "anonymous-created"])

            // The daemon dies and comes back: watch reconnects and sees the next change.
            try await daemon.kill()
            try await daemon.restart()
            try await eventually("watch reconnected", timeout: .seconds(30)) {
                human.stderr.components(separatedBy: "connected to sesamed").count == 3
            }
            #expect(try await daemon.ctl(["sign-out", "--reset"]).status == 0)
            try await eventually("watch prints the second reset") {
                human.stdout.components(separatedBy: "authStateChanged reset").count == 3
            }
            #expect(human.isRunning)

            // A clean stop announces itself; watch waits for the next daemon.
            #expect(try await daemon.stop() == 0)
            try await eventually("watch prints the shutdown") { human.stdout.contains("shutdown: sesamed is stopping") }
            try await daemon.restart()
            try await eventually("watch reconnected again", timeout: .seconds(30)) {
                human.stderr.components(separatedBy: "connected to sesamed").count == 4
            }
            #expect(human.isRunning)
            #expect(raw.isRunning)

            human.signal(SIGINT)
            raw.signal(SIGINT)
            #expect(try await human.waitForExit() == 0)
            #expect(try await raw.waitForExit() == 0)
        }
    }

    @Test("the Python example of docs/protocol.md works against the real daemon")
    func pythonExample() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let doc = try String(contentsOfFile: root + "/docs/protocol.md", encoding: .utf8)
        let start = try #require(doc.range(of: "```python\n"))
        let end = try #require(doc.range(of: "\n```", range: start.upperBound..<doc.endIndex))
        let code = String(doc[start.upperBound..<end.lowerBound])
        try await withDaemon { _, daemon in
            let uid = try #require(try await daemon.uid())
            let python = try await ChildProcess(
                "/usr/bin/env", ["python3", "-u", "-c", code], environment: ["SESAME_SOCKET": daemon.socketPath],
                logPrefix: daemon.directory + "/python")
            defer { if python.isRunning { python.signal(SIGKILL) } }
            try await eventually("the example printed the state") { python.stdout.contains("anonymous \(uid)") }
            #expect(try await daemon.ctl(["sign-out", "--reset"]).status == 0)
            try await eventually("the example printed the notifications") {
                python.stdout.contains("'reset'") && python.stdout.contains("'anonymous-created'")
            }
            #expect(python.stderr.isEmpty, "\(python.stderr)")
        }
    }

    @Test("completion scripts and the man page are generated")
    func completionsAndManPage() async throws {
        let ctl = BuiltBinaries.path("sesamectl")
        for shell in ["bash", "zsh", "fish"] {
            let script = try await runCommand(ctl, ["--generate-completion-script", shell])
            #expect(script.status == 0, "\(shell): \(script.stderr)")
            #expect(script.stdout.contains("sign-in"), "\(shell)")
        }
        let man = try await runCommand(ctl, ["help-man"])
        #expect(man.status == 0)
        #expect(man.stdout.hasPrefix(".TH SESAMECTL 1"))
        for section in [".SH NAME", ".SH SYNOPSIS", ".SH COMMANDS", ".SH EXIT STATUS", "sign\\-in"] {
            #expect(man.stdout.contains(section), "\(section)")
        }
        #expect(man.stdout.unicodeScalars.allSatisfy { $0.isASCII })
        // groff, when present, renders it without a warning.
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") {
            let directory = try makeTemporaryDirectory("man")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try man.stdout.write(toFile: directory + "/sesamectl.1", atomically: true, encoding: .utf8)
            let lint = try await runCommand(
                "/usr/bin/groff", ["-man", "-Tutf8", "-ww", "-z", directory + "/sesamectl.1"])
            #expect(lint.status == 0)
            #expect(lint.stderr.isEmpty, "\(lint.stderr)")
        }
    }
}
