import Foundation
import SesameTesting
import Testing

/// The session from shell tools without code (issue 23): `sesamectl exec`, `token --header` and
/// the git credential helper, with a real git against a real HTTP server.
@Suite("sesamectl from a shell: exec, token --header, git credentials", .serialized, .timeLimit(.minutes(3)))
struct SesamectlShellTests: SesamectlTestHelpers {
    @Test(
        "exec: the token in $SESAME_ID_TOKEN (or --env), never in argv; the command's exit status; 69 before running when the daemon is down"
    )
    func exec() async throws {
        try await withDaemon { _, daemon in
            let token = try await daemon.ctl(["token"]).stdout.trimmingCharacters(in: .newlines)
            #expect(!token.isEmpty)
            let printed = try await daemon.ctl(["exec", "--", "sh", "-c", #"printf %s "$SESAME_ID_TOKEN""#])
            #expect(printed.status == 0 && printed.stdout == token, "\(printed)")
            let named = try await daemon.ctl(["exec", "--env", "MY_TOKEN", "--", "sh", "-c", #"printf %s "$MY_TOKEN""#])
            #expect(named.stdout == token)
            // The command line of the command that runs holds no token.
            let argv = try await daemon.ctl(["exec", "--", "sh", "-c", "tr '\\0' ' ' < /proc/$$/cmdline"])
            #expect(argv.status == 0 && !argv.stdout.isEmpty && !argv.stdout.contains(token), "\(argv)")
            #expect(try await daemon.ctl(["exec", "--", "sh", "-c", "exit 7"]).status == 7)
            #expect(try await daemon.ctl(["exec", "--", "/nonexistent/command"]).status == 127)
            #expect(try await daemon.ctl(["exec", "--env", "1BAD", "--", "true"]).status == 2)
            #expect(try await daemon.ctl(["exec"]).status == 2)

            let marker = try makeTemporaryDirectory("exec") + "/ran"
            let down = try await runCommand(
                BuiltBinaries.path("sesamectl"), ["exec", "--socket", marker + ".sock", "--", "touch", marker])
            #expect(down.status == 69, "\(down)")
            #expect(!FileManager.default.fileExists(atPath: marker), "nothing runs when the daemon is down")

            let header = try await daemon.ctl(["token", "--header"])
            #expect(header.stdout == "Authorization: Bearer \(token)\n")
            #expect(try await daemon.ctl(["token", "--header", "--json"]).status == 2)
        }
    }

    @Test("credential: git clones a private HTTP remote with the ID token; an unlisted host gets nothing")
    func gitCredentialHelper() async throws {
        try await withDaemon { emulator, daemon in
            let work = try makeTemporaryDirectory("git")
            defer { try? FileManager.default.removeItem(atPath: work) }
            try await Self.makeBareRepository(at: work + "/served/repo.git", scratch: work + "/scratch")
            try Self.serverScript.write(toFile: work + "/server.py", atomically: true, encoding: .utf8)
            let server = try await ChildProcess(
                "/usr/bin/python3",
                [work + "/server.py", work + "/served", work + "/port", "http://\(emulator.authHost)"],
                logPrefix: work + "/server")
            defer { server.signal(SIGTERM) }
            try await eventually("the git server listens") {
                FileManager.default.fileExists(atPath: work + "/port") || !server.isRunning
            }
            let port = try String(contentsOfFile: work + "/port", encoding: .utf8).trimmingCharacters(
                in: .whitespacesAndNewlines)
            let config = work + "/config"
            try FileManager.default.createDirectory(atPath: config + "/sesame", withIntermediateDirectories: true)
            let helper = "!\(BuiltBinaries.path("sesamectl")) credential"
            let environment = [
                "XDG_CONFIG_HOME": config, "HOME": work, "GIT_TERMINAL_PROMPT": "0", "GIT_CONFIG_NOSYSTEM": "1",
                "SESAME_SOCKET": daemon.socketPath,
            ]
            func clone(_ name: String) async throws -> CommandResult {
                let arguments = [
                    "-c", "credential.helper=", "-c", "credential.helper=\(helper)", "clone", "-q",
                    "http://127.0.0.1:\(port)/repo.git", work + "/" + name,
                ]
                return try await runCommand("/usr/bin/git", arguments, environment: environment)
            }
            // Not listed: sesamectl hands nothing out, and git cannot authenticate.
            let refused = try await clone("refused")
            #expect(refused.status != 0, "\(refused)")
            // git shows the helper's standard error: the person is told why.
            #expect(refused.stderr.contains("127.0.0.1:\(port): it is not listed in [credential] hosts"), "\(refused)")
            #expect(!FileManager.default.fileExists(atPath: work + "/refused/README"))

            try "[credential]\nhosts = [\"127.0.0.1:\(port)\"]\n".write(
                toFile: config + "/sesame/sesamectl.toml", atomically: true, encoding: .utf8)
            let cloned = try await clone("cloned")
            #expect(cloned.status == 0, "\(cloned)\n\(server.stderr)")
            let readme = try String(contentsOfFile: work + "/cloned/README", encoding: .utf8)
            #expect(readme == "private\n")
        }
    }

    /// A bare repository with one commit, served over git's "dumb" HTTP protocol.
    static func makeBareRepository(at path: String, scratch: String) async throws {
        let git = "/usr/bin/git"
        let identity = [
            "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1", "HOME": scratch,
        ]
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        #expect(try await runCommand(git, ["init", "-q", scratch], environment: identity).status == 0)
        try "private\n".write(toFile: scratch + "/README", atomically: true, encoding: .utf8)
        for arguments in [
            ["-C", scratch, "add", "README"], ["-C", scratch, "commit", "-q", "-m", "one"],
            ["clone", "-q", "--bare", scratch, path], ["-C", path, "update-server-info"],
        ] {
            let result = try await runCommand(git, arguments, environment: identity)
            #expect(result.status == 0, "git \(arguments): \(result.stderr)")
        }
    }

    /// A static HTTP server for one folder that wants Basic credentials whose password is an
    /// ID token the Firebase emulator accepts (`accounts:lookup`), as a server behind Sesame would.
    static let serverScript = #"""
        import base64, http.server, json, sys, urllib.request
        root, port_file, auth = sys.argv[1], sys.argv[2], sys.argv[3]
        def valid(token):
            request = urllib.request.Request(
                auth + "/identitytoolkit.googleapis.com/v1/accounts:lookup?key=k",
                data=json.dumps({"idToken": token}).encode(), headers={"content-type": "application/json"})
            try:
                with urllib.request.urlopen(request, timeout=10) as answer:
                    return answer.status == 200
            except Exception:
                return False
        class Handler(http.server.SimpleHTTPRequestHandler):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, directory=root, **kwargs)
            def do_GET(self):
                header = self.headers.get("Authorization", "")
                if header.startswith("Basic "):
                    user, _, password = base64.b64decode(header[6:]).decode().partition(":")
                    if user == "sesame-id-token" and valid(password):
                        return super().do_GET()
                self.send_response(401)
                self.send_header("WWW-Authenticate", 'Basic realm="git"')
                self.send_header("Content-Length", "0")
                self.end_headers()
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        with open(port_file + ".tmp", "w") as f:
            f.write(str(server.server_address[1]))
        import os; os.rename(port_file + ".tmp", port_file)
        server.serve_forever()
        """#
}
