import Foundation
import SesameLocalAPI
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `sesamectl` as a person and a script use it, against the built `sesamed` and
/// `sesame-emulator` (issue 4): every command's output and exit status, human and `--json`.
@Suite("sesamectl end to end", .serialized, .timeLimit(.minutes(3)))
struct SesamectlTests {
    func withDaemon(
        settings: [String: [String: String]] = [:], _ body: (EmulatorProcess, DaemonProcess) async throws -> Void
    ) async throws {
        try await withEmulatorAndDaemon(settings: settings, body)
    }

    /// The JSON object a command printed.
    func object(_ result: CommandResult) throws -> [String: Any] {
        let data = Data(result.stdout.utf8)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(result)")
    }

    /// An error's one line on standard error, checked to be exactly one line from sesamectl.
    func oneLine(_ result: CommandResult, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty, "not one line: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix("sesamectl: "), "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(!result.stderr.contains("Fatal error"), sourceLocation: sourceLocation)
        return String(lines.first ?? "")
    }

    // MARK: status and token

    @Test("status: the human fields and --json's State; token: the bare token, also in $(…)")
    func statusAndToken() async throws {
        try await withDaemon { _, daemon in
            let uid = try #require(try await daemon.uid())
            let status = try await daemon.ctl(["status"])
            #expect(status.status == 0)
            #expect(status.stderr.isEmpty)
            for expected in [
                "status:", "anonymous", "uid:", uid, "account:", "anonymous (guest)", "token:", "valid for ",
                " min", "connectivity:", "online", "pending merges:", "none",
            ] {
                #expect(status.stdout.contains(expected), "missing \(expected) in \(status.stdout)")
            }
            let json = try object(try await daemon.ctl(["status", "--json"]))
            #expect(json["status"] as? String == "anonymous")
            #expect((json["user"] as? [String: Any])?["uid"] as? String == uid)
            #expect((json["token"] as? [String: Any])?["expiresAt"] is String)
            #expect(json["connectivity"] as? String == "online")
            #expect(json["pendingMerges"] as? [Any] != nil)
            #expect(json["needsUsername"] as? Bool == false)
            #expect(json["sequence"] is Int)

            let token = try await daemon.ctl(["token"])
            #expect(token.status == 0)
            #expect(token.stderr.isEmpty)
            #expect(token.stdout.hasSuffix("\n"))
            let bare = String(token.stdout.dropLast())
            #expect(bare.split(separator: ".", omittingEmptySubsequences: false).count == 3)
            #expect(!bare.contains { $0.isWhitespace })

            let forced = try await daemon.ctl(["token", "--force", "--json"])
            #expect(forced.status == 0)
            let forcedJSON = try object(forced)
            #expect(forcedJSON["uid"] as? String == uid)
            #expect(forcedJSON["token"] is String)
            #expect(forcedJSON["expiresAt"] is String)
            #expect(forcedJSON["signInProvider"] as? String == "anonymous")
            #expect(try await daemon.ctl(["token", "--force"]).status == 0)

            // In a command substitution, as a script uses it; and as a bearer token the backend takes.
            let ctl = Binaries.path("sesamectl")
            let env = ["SESAME_SOCKET": daemon.socketPath, "CTL": ctl]
            let substituted = try await runCommand(
                "/bin/sh", ["-c", "T=$(\"$CTL\" token) && test ${#T} -gt 100 && echo ok"], environment: env)
            #expect(substituted.stdout == "ok\n", "\(substituted)")
            let lookup = try await runCommand(
                "/bin/sh",
                [
                    "-c",
                    "curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' "
                        + "-d \"{\\\"idToken\\\":\\\"$(\"$CTL\" token)\\\"}\" "
                        + "'http://\(daemon.emulator.authHost)/identitytoolkit.googleapis.com/v1/accounts:lookup?key=k'",
                ], environment: env)
            if lookup.status != 127 {  // curl may be missing
                #expect(lookup.stdout == "200", "\(lookup)")
            }
        }
    }

    @Test("backend down: status says offline; token still serves the held token; --force says when to retry")
    func backendDown() async throws {
        try await withDaemon { emulator, daemon in
            try await emulator.faults(["down": true])
            let held = try await daemon.ctl(["token"])
            #expect(held.status == 0, "\(held)")
            let forced = try await daemon.ctl(["token", "--force"])
            #expect(forced.status == 1, "\(forced)")
            #expect(forced.stdout.isEmpty)
            let line = oneLine(forced)
            #expect(line.contains("network-request-failed") && line.contains("try again"), "\(line)")
            let status = try await daemon.ctl(["status"])
            #expect(status.stdout.contains("connectivity:    offline"), "\(status.stdout)")
            let signIn = try await daemon.ctl(["sign-in", "ann@example.com", "--password-stdin"], stdin: "secret-1\n")
            #expect(signIn.status == 1, "\(signIn)")
            #expect(oneLine(signIn).contains("try again"))
            try await emulator.faults(["down": false])
            #expect(try await daemon.ctl(["token", "--force"]).status == 0)
            #expect(try await daemon.ctl(["status"]).stdout.contains("connectivity:    online"))
        }
    }

    @Test("a user without a role, or with too low a role, is told which role it needs", .enabled(if: getuid() == 0))
    func roles() async throws {
        try await withDaemon(settings: ["socket": ["mode": "\"0666\""], "access": ["observers": "[\"user:nobody\"]"]]) {
            _, daemon in
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: daemon.directory)
            let asNobody = { (arguments: [String]) async throws -> CommandResult in
                try await runCommand(
                    "/usr/bin/setpriv",
                    ["--reuid=nobody", "--regid=nogroup", "--clear-groups", Binaries.path("sesamectl")] + arguments,
                    environment: ["SESAME_SOCKET": daemon.socketPath])
            }
            let status = try await asNobody(["status"])
            #expect(status.status == 0, "\(status)")
            let token = try await asNobody(["token"])
            #expect(token.status == 1, "\(token)")
            #expect(oneLine(token).contains("reader role"), "\(token.stderr)")
            #expect(token.stdout.isEmpty)
            let signOut = try await asNobody(["sign-out", "--reset"])
            #expect(signOut.status == 1)
            #expect(oneLine(signOut).contains("manager role"), "\(signOut.stderr)")
        }
    }

    @Test("no backend at the first start: status says signed out and offline; token says what to do")
    func signedOutWhileOffline() async throws {
        let emulator = try await EmulatorProcess.start()
        try await emulator.faults(["down": true])
        let daemon = try await DaemonProcess.start(emulator: emulator, waitFor: "signedOut")
        do {
            let status = try await daemon.ctl(["status"])
            #expect(status.status == 0, "\(status)")
            #expect(status.stdout.contains("status:          signed out"), "\(status.stdout)")
            #expect(status.stdout.contains("token:           none"), "\(status.stdout)")
            #expect(!status.stdout.contains("uid:"))
            let token = try await daemon.ctl(["token"])
            #expect(token.status == 1, "\(token)")
            #expect(token.stdout.isEmpty)
            #expect(oneLine(token).contains("nobody is signed in"), "\(token.stderr)")
            try await emulator.faults(["down": false])
            try await daemon.waitForStatus("anonymous", timeout: .seconds(90))
            #expect(try await daemon.ctl(["token"]).status == 0)
        } catch {
            await daemon.cleanUp()
            await emulator.stop()
            throw error
        }
        await daemon.cleanUp()
        await emulator.stop()
    }

    // MARK: accounts

    @Test("sign-up, email-already-in-use, sign-out (--reset), sign-in with a merge, merges list|complete")
    func signUpSignInMerges() async throws {
        try await withDaemon(settings: ["merge": ["hold": "600"]]) { emulator, daemon in
            let guest = try #require(try await daemon.uid())
            let signUp = try await daemon.ctl(["sign-up", "ann@example.com", "--password-stdin"], stdin: "secret-1\n")
            #expect(signUp.status == 0, "\(signUp)")
            #expect(signUp.stdout == "signed in as ann@example.com (uid \(guest))\n")
            #expect(try await daemon.uid() == guest)

            // A guest's sign-out needs --reset.
            let signOut = try await daemon.ctl(["sign-out"])
            #expect(signOut.status == 0, "\(signOut)")
            #expect(signOut.stdout.hasPrefix("signed out; now anonymous guest (uid "))
            let guest2 = try #require(try await daemon.uid())
            #expect(guest2 != guest)
            let refused = try await daemon.ctl(["sign-out"])
            #expect(refused.status == 1)
            #expect(oneLine(refused).contains("sesamectl sign-out --reset"))

            // Signing up with a taken email says to sign in instead.
            let taken = try await daemon.ctl(["sign-up", "ann@example.com", "--password-stdin"], stdin: "secret-1\n")
            #expect(taken.status == 1)
            let advice = oneLine(taken)
            #expect(advice.contains("run `sesamectl sign-in ann@example.com`"), "\(advice)")
            #expect(advice.contains("guest data will be merged"), "\(advice)")
            #expect(taken.stdout.isEmpty)

            let weak = try await daemon.ctl(["sign-up", "bob@example.com", "--password-stdin"], stdin: "x\n")
            #expect(weak.status == 1)
            #expect(oneLine(weak).contains("password"))

            let wrong = try await daemon.ctl(["sign-in", "ann@example.com", "--password-stdin"], stdin: "nope-nope\n")
            #expect(wrong.status == 1)
            #expect(oneLine(wrong).contains("sesamectl reset-password"))

            let signIn = try await daemon.ctl(
                ["sign-in", "ann@example.com", "--password-stdin", "--json"], stdin: "secret-1\n")
            #expect(signIn.status == 0, "\(signIn)")
            let result = try object(signIn)
            let merge = try #require(result["merge"] as? [String: Any])
            #expect(merge["fromUid"] as? String == guest2)
            #expect(merge["toUid"] as? String == guest)
            #expect((result["state"] as? [String: Any])?["status"] as? String == "authenticated")
            let mergeId = try #require(merge["mergeId"] as? String)

            let list = try await daemon.ctl(["merges", "list"])
            #expect(list.status == 0)
            #expect(list.stdout.contains("\(mergeId)  \(guest2) -> \(guest)"), "\(list.stdout)")
            #expect(try await daemon.ctl(["merges"]).stdout == list.stdout)
            let listJSON = try await daemon.ctl(["merges", "list", "--json"])
            let merges = try #require(try JSONSerialization.jsonObject(with: Data(listJSON.stdout.utf8)) as? [[String: Any]])
            #expect(merges.map { $0["mergeId"] as? String } == [mergeId])
            let status = try await daemon.ctl(["status"])
            #expect(status.stdout.contains("pending merges:  1"), "\(status.stdout)")
            #expect(status.stdout.contains("password"))
            #expect(status.stdout.contains("ann@example.com"))

            let unknown = try await daemon.ctl(["merges", "complete", "no-such-merge"])
            #expect(unknown.status == 1)
            #expect(oneLine(unknown).contains("sesamectl merges list"))
            let complete = try await daemon.ctl(["merges", "complete", mergeId])
            #expect(complete.status == 0, "\(complete)")
            #expect(complete.stdout == "merge \(mergeId) completed; 0 pending\n")
            #expect(try await daemon.ctl(["merges", "list"]).stdout == "no pending merges\n")
            try await waitUntil("the guest account is deleted") { try await !emulator.accountExists(guest2) }

            // From an account, sign-out needs no --reset; from a guest, --reset deletes it.
            #expect(try await daemon.ctl(["sign-out", "--json"]).status == 0)
            let guest3 = try #require(try await daemon.uid())
            let reset = try await daemon.ctl(["sign-out", "--reset"])
            #expect(reset.status == 0, "\(reset)")
            #expect(try await daemon.uid() != guest3)
            try await waitUntil("the reset guest is deleted") { try await !emulator.accountExists(guest3) }
        }
    }

    @Test("update-profile, verify-email, reload, reset-password, username check, delete-account")
    func profileCommands() async throws {
        try await withDaemon { emulator, daemon in
            // A guest has no email to verify.
            #expect(try await daemon.ctl(["verify-email"]).status == 1)
            #expect(try await daemon.ctl(["sign-up", "cy@example.com", "--password-stdin"], stdin: "secret-1\n").status == 0)
            let uid = try #require(try await daemon.uid())

            let profile = try await daemon.ctl(["update-profile", "--display-name", "Cy Young"])
            #expect(profile.status == 0, "\(profile)")
            #expect(profile.stdout == "display name: Cy Young\n")
            let profileJSON = try object(try await daemon.ctl(["update-profile", "--display-name", "Cy", "--json"]))
            #expect((profileJSON["user"] as? [String: Any])?["displayName"] as? String == "Cy")

            let verify = try await daemon.ctl(["verify-email"])
            #expect(verify.status == 0, "\(verify)")
            #expect(verify.stdout.contains("sesamectl reload"))
            let link = try #require(try await emulator.oobLink(email: "cy@example.com", requestType: "VERIFY_EMAIL"))
            let oobCode = try #require(URLComponents(string: link)?.queryItems?.first { $0.name == "oobCode" }?.value)
            try await emulator.request(
                "POST", "/identitytoolkit.googleapis.com/v1/accounts:update?key=k", json: ["oobCode": .string(oobCode)])
            let reload = try await daemon.ctl(["reload"])
            #expect(reload.status == 0, "\(reload)")
            #expect(reload.stdout.contains("cy@example.com (verified)"), "\(reload.stdout)")
            let reloadJSON = try object(try await daemon.ctl(["reload", "--json"]))
            #expect((reloadJSON["user"] as? [String: Any])?["emailVerified"] as? Bool == true)

            let resetPassword = try await daemon.ctl(["reset-password", "cy@example.com"])
            #expect(resetPassword.status == 0, "\(resetPassword)")
            #expect(resetPassword.stdout == "sent a password-reset email for cy@example.com\n")
            #expect(try await emulator.oobLink(email: "cy@example.com", requestType: "PASSWORD_RESET") != nil)
            #expect(try await daemon.ctl(["reset-password", "cy@example.com", "--json"]).stdout == "{}\n")

            // Usernames are on (the daemon has a database emulator): only the CLI's plumbing here.
            let free = try await daemon.ctl(["username", "check", "cy.young"])
            #expect(free.status == 0, "\(free)")
            #expect(free.stdout == "cy.young is available\n")
            let freeJSON = try object(try await daemon.ctl(["username", "check", "cy.young", "--json"]))
            #expect(freeJSON["available"] as? Bool == true)
            #expect(freeJSON["username"] as? String == "cy.young")
            let invalid = try await daemon.ctl(["username", "check", "a@b"])
            #expect(invalid.status == 1)
            #expect(invalid.stdout == "a@b is not available (invalid-username)\n")
            let invalidJSON = try object(try await daemon.ctl(["username", "check", "a@b", "--json"]))
            #expect(invalidJSON["available"] as? Bool == false)
            #expect(invalidJSON["reason"] as? String == "invalid-username")

            // The username commands' plumbing (their rules are tested in UsernameTests).
            let setName = try await daemon.ctl(["username", "set", "cy.young"])
            #expect(setName.status == 0, "\(setName)")
            #expect(setName.stdout == "your username is now cy.young\n")
            let withName = try await daemon.ctl(["status"])
            #expect(withName.stdout.contains("username:        cy.young"), "\(withName.stdout)")
            #expect(withName.stdout.contains("display name:    Cy"), "\(withName.stdout)")
            let ownName = try await daemon.ctl(["username", "check", "cy.young"])
            #expect(ownName.status == 0, "\(ownName)")

            let deleted = try await daemon.ctl(["delete-account"])
            #expect(deleted.status == 0, "\(deleted)")
            #expect(deleted.stdout.hasPrefix("account deleted; now anonymous guest (uid "), "\(deleted.stdout)")
            try await waitUntil("the account is gone") { try await !emulator.accountExists(uid) }
            let guestDeleted = try object(try await daemon.ctl(["delete-account", "--json"]))
            #expect(guestDeleted["status"] as? String == "anonymous")
        }
    }

    @Test("send-link, complete-link, sign-in-idp, link idp|password|email-link, unlink")
    func linksAndProviders() async throws {
        try await withDaemon(settings: ["merge": ["hold": "600"]]) { emulator, daemon in
            let guest = try #require(try await daemon.uid())
            let sent = try await daemon.ctl(["send-link", "dee@example.com"])
            #expect(sent.status == 0, "\(sent)")
            #expect(sent.stdout.contains("sent a sign-in link to dee@example.com"))
            let link = try #require(try await emulator.oobLink(email: "dee@example.com"))
            let completed = try await daemon.ctl(["complete-link", link])
            #expect(completed.status == 0, "\(completed)")
            #expect(completed.stdout == "signed in as dee@example.com (uid \(guest))\n")
            // The daemon forgot the address once its link completed.
            let forgotten = try await daemon.ctl(["complete-link", link])
            #expect(forgotten.status == 1)
            #expect(oneLine(forgotten).contains("--email"))
            let reused = try await daemon.ctl(["complete-link", link, "--email", "dee@example.com"])
            #expect(reused.status == 1)
            #expect(oneLine(reused).contains("sesamectl send-link"))

            let linked = try await daemon.ctl(
                ["link", "idp", "google.com", "--id-token", idpClaims(sub: "g-dee", email: "dee@example.com")])
            #expect(linked.status == 0, "\(linked)")
            #expect(try await daemon.ctl(["status"]).stdout.contains("google.com"))
            let unlinked = try await daemon.ctl(["unlink", "google.com", "--json"])
            #expect(unlinked.status == 0, "\(unlinked)")
            #expect((try object(unlinked)["user"] as? [String: Any])?["providers"] as? [String] == ["password"])
            let noSuch = try await daemon.ctl(["unlink", "apple.com"])
            #expect(noSuch.status == 1)
            #expect(oneLine(noSuch).contains("sesamectl status"))

            // A fresh guest signs in with a new federated identity: linked in place.
            #expect(try await daemon.ctl(["sign-out"]).status == 0)
            let guest2 = try #require(try await daemon.uid())
            let idp = try await daemon.ctl(
                ["sign-in-idp", "google.com", "--id-token", idpClaims(sub: "g-eve", email: "eve@example.com"), "--json"])
            #expect(idp.status == 0, "\(idp)")
            let idpResult = try object(idp)
            #expect(idpResult["merge"] is NSNull)
            #expect(((idpResult["state"] as? [String: Any])?["user"] as? [String: Any])?["uid"] as? String == guest2)

            // The password of an email from another account is a conflict.
            let conflict = try await daemon.ctl(
                ["link", "password", "dee@example.com", "--password-stdin"], stdin: "secret-1\n")
            #expect(conflict.status == 1, "\(conflict)")
            _ = oneLine(conflict)
            let password = try await daemon.ctl(
                ["link", "password", "eve.pw@example.com", "--password-stdin"], stdin: "secret-1\n")
            #expect(password.status == 0, "\(password)")
            #expect(try await daemon.ctl(["status"]).stdout.contains("password"))

            // email-link onto a guest, with the address remembered from send-link.
            #expect(try await daemon.ctl(["sign-out"]).status == 0)
            let guest3 = try #require(try await daemon.uid())
            #expect(try await daemon.ctl(["send-link", "fay@example.com"]).status == 0)
            let faysLink = try #require(try await emulator.oobLink(email: "fay@example.com"))
            let emailLink = try await daemon.ctl(["link", "email-link", faysLink])
            #expect(emailLink.status == 0, "\(emailLink)")
            #expect(emailLink.stdout == "signed in as fay@example.com (uid \(guest3))\n")
        }
    }

    // MARK: bad input

    @Test("bad usage exits 2 with one line; a missing socket exits 69 naming it")
    func badUsageAndMissingSocket() async throws {
        let ctl = Binaries.path("sesamectl")
        let missing = "/tmp/no-such-dir-\(UUID().uuidString.prefix(6))/s.sock"
        for arguments in [
            ["frobnicate"], ["status", "--frobnicate"], ["sign-in"], ["sign-in-idp", "google.com"],
            ["token", "--min-validity", "soon"], ["merges", "complete"], ["link"], ["username", "check"],
            ["sign-in", "ann@example.com", "--password", "x"], ["token", "--min-validity", "-1"],
        ] {
            let result = try await runCommand(ctl, arguments, environment: ["SESAME_SOCKET": missing])
            #expect(result.status == 2, "\(arguments): \(result)")
            #expect(oneLine(result).contains("(see --help)"), "\(arguments)")
            #expect(result.stdout.isEmpty, "\(arguments)")
        }
        for arguments in [["status"], ["token"], ["status", "--json"], ["watch"], ["sign-out", "--reset"]] {
            let result = try await runCommand(ctl, arguments, environment: ["SESAME_SOCKET": missing])
            #expect(result.status == 69, "\(arguments): \(result)")
            #expect(oneLine(result).contains(missing), "\(arguments)")
            #expect(result.stdout.isEmpty)
        }
        // --socket wins over $SESAME_SOCKET.
        let flag = try await runCommand(ctl, ["status", "--socket", missing + "2"], environment: ["SESAME_SOCKET": missing])
        #expect(flag.status == 69)
        #expect(oneLine(flag).contains(missing + "2"))
        // A password is never read from a closed standard input.
        let empty = try await runCommand(ctl, ["sign-in", "a@example.com", "--password-stdin"], environment: ["SESAME_SOCKET": missing])
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
            let server = try ChildProcess(
                "/usr/bin/env", ["python3", "-c", script, path, mode], logPrefix: directory + "/server." + mode)
            defer { server.signal(SIGKILL) }
            try await waitUntil("the fake server listens") { server.stdout.contains("ready") }
            for arguments in [["status"], ["token"], ["sign-out", "--reset", "--json"]] {
                let result = try await runCommand(
                    Binaries.path("sesamectl"), arguments, environment: ["SESAME_SOCKET": path])
                #expect(result.status == 69, "\(mode) \(arguments): \(result)")
                #expect(oneLine(result).contains("closed the connection"), "\(mode): \(result.stderr)")
                #expect(result.stdout.isEmpty)
            }
        }
    }

    @Test("the real daemon killed during a call: one clear line, exit 69")
    func daemonDiesMidCall() async throws {
        try await withDaemon { emulator, daemon in
            try await emulator.faults(["latencyMs": 5000, "pathPrefix": "/identitytoolkit.googleapis.com/v1/accounts:signUp"])
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

    // MARK: watch

    @Test("watch and watch --json see another client's sign-out --reset; survive a restart; SIGINT exits 0")
    func watchSeesSignOut() async throws {
        try await withDaemon { _, daemon in
            let env = ["SESAME_SOCKET": daemon.socketPath]
            let human = try ChildProcess(
                Binaries.path("sesamectl"), ["watch"], environment: env, logPrefix: daemon.directory + "/watch")
            let raw = try ChildProcess(
                Binaries.path("sesamectl"), ["watch", "--json"], environment: env, logPrefix: daemon.directory + "/watchjson")
            defer {
                if human.isRunning { human.signal(SIGKILL) }
                if raw.isRunning { raw.signal(SIGKILL) }
            }
            // `connected` goes to standard error once the subscription is in place.
            try await waitUntil("both watchers are subscribed") {
                human.stderr.contains("connected to sesamed") && raw.stderr.contains("connected to sesamed")
            }
            let reset = try await daemon.ctl(["sign-out", "--reset"])
            #expect(reset.status == 0, "\(reset)")
            try await waitUntil("watch prints reset and anonymous-created") {
                human.stdout.contains("authStateChanged reset") && human.stdout.contains("authStateChanged anonymous-created")
            }
            try await waitUntil("watch --json prints both notifications") {
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
            try await waitUntil("watch reconnected", timeout: .seconds(30)) {
                human.stderr.components(separatedBy: "connected to sesamed").count == 3
            }
            #expect(try await daemon.ctl(["sign-out", "--reset"]).status == 0)
            try await waitUntil("watch prints the second reset") {
                human.stdout.components(separatedBy: "authStateChanged reset").count == 3
            }
            #expect(human.isRunning)

            // A clean stop announces itself; watch waits for the next daemon.
            #expect(try await daemon.stop() == 0)
            try await waitUntil("watch prints the shutdown") { human.stdout.contains("shutdown: sesamed is stopping") }
            try await daemon.restart()
            try await waitUntil("watch reconnected again", timeout: .seconds(30)) {
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
            let python = try ChildProcess(
                "/usr/bin/env", ["python3", "-u", "-c", code], environment: ["SESAME_SOCKET": daemon.socketPath],
                logPrefix: daemon.directory + "/python")
            defer { if python.isRunning { python.signal(SIGKILL) } }
            try await waitUntil("the example printed the state") { python.stdout.contains("anonymous \(uid)") }
            #expect(try await daemon.ctl(["sign-out", "--reset"]).status == 0)
            try await waitUntil("the example printed the notifications") {
                python.stdout.contains("'reset'") && python.stdout.contains("'anonymous-created'")
            }
            #expect(python.stderr.isEmpty, "\(python.stderr)")
        }
    }

    // MARK: completions, man page, install

    @Test("completion scripts and the man page are generated")
    func completionsAndManPage() async throws {
        let ctl = Binaries.path("sesamectl")
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
            let lint = try await runCommand("/usr/bin/groff", ["-man", "-Tutf8", "-ww", "-z", directory + "/sesamectl.1"])
            #expect(lint.status == 0)
            #expect(lint.stderr.isEmpty, "\(lint.stderr)")
        }
    }
}

/// Fake IdP credentials the emulator accepts: strict-JSON claims.
func idpClaims(sub: String, email: String) -> String {
    JSONValue.object(["sub": .string(sub), "email": .string(email), "email_verified": .bool(true)]).jsonString
}
