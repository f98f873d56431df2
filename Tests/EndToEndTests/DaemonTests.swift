import Foundation
import SesameClient
import SesameLocalAPI
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `sesamed` as a process against `sesame-emulator` as a process (issue: the daemon).
@Suite("sesamed end to end", .serialized, .timeLimit(.minutes(3)))
struct DaemonTests {
    @Test("anonymous first; a restart keeps the uid and creates no new account; SIGTERM exits 0")
    func anonymousFirstAndRestart() async throws {
        let emulator = try await EmulatorProcess.start()
        defer { Task { await emulator.stop() } }
        let daemon = try await DaemonProcess.start(emulator: emulator)
        defer { Task { await daemon.cleanUp() } }
        let uid = try #require(try await daemon.uid())
        #expect(try await emulator.accountExists(uid))
        #expect(try await emulator.calls()["accounts:signUp"] == 1)
        let mode = try FileManager.default.attributesOfItem(atPath: daemon.stateDirectory + "/keyring")[.posixPermissions]
        #expect(mode as? Int == 0o600)

        #expect(try await daemon.stop() == 0)
        try await daemon.restart()
        #expect(try await daemon.uid() == uid)
        #expect(try await emulator.calls()["accounts:signUp"] == 1)
    }

    @Test("the token is renewed ahead of expiry by itself")
    func proactiveRefresh() async throws {
        let emulator = try await EmulatorProcess.start()
        defer { Task { await emulator.stop() } }
        try await emulator.faults(["tokenTtlSeconds": 6])
        let daemon = try await DaemonProcess.start(emulator: emulator, settings: ["session": ["refresh_margin": "300"]])
        defer { Task { await daemon.cleanUp() } }
        let client = daemon.client()
        defer { Task { await client.close() } }
        let first = try await client.state()
        // With a 6 s lifetime and a 300 s margin, the daemon refreshes at half the lifetime.
        try await waitUntil("a refresh happened without anyone asking") {
            (try await emulator.calls()["token"] ?? 0) >= 1
        }
        try await waitUntil("the state shows the new expiry") {
            (try await client.state().tokenExpiresAt ?? .distantPast) > (first.tokenExpiresAt ?? .distantFuture)
        }
        #expect(try await client.state().user?.uid == first.user?.uid)
    }

    @Test("200 concurrent token requests make one backend refresh")
    func singleFlight() async throws {
        let emulator = try await EmulatorProcess.start()
        defer { Task { await emulator.stop() } }
        let daemon = try await DaemonProcess.start(emulator: emulator)
        defer { Task { await daemon.cleanUp() } }
        let clients = (0..<4).map { _ in daemon.client() }
        for client in clients { _ = try await client.hello() }
        let before = try await emulator.calls()["token"] ?? 0
        try await emulator.faults(["latencyMs": 1500, "pathPrefix": "/securetoken.googleapis.com"])
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for i in 0..<200 {
                let client = clients[i % clients.count]
                group.addTask { try await client.idToken(forceRefresh: true).token }
            }
            var tokens = Set<String>()
            for try await token in group { tokens.insert(token) }
            return tokens
        }
        let calls = try await emulator.calls()  // read before clearing: DELETE resets the counters
        try await emulator.clearFaults()
        #expect(tokens.count == 1)
        let refreshes = (calls["token"] ?? 0) - before
        #expect(refreshes == 1, "\(refreshes) refreshes; calls: \(calls)")
        for client in clients { await client.close() }
    }

    @Test("backend down: a valid token is still served; connectivity goes offline and back")
    func backendDown() async throws {
        let emulator = try await EmulatorProcess.start()
        defer { Task { await emulator.stop() } }
        let daemon = try await DaemonProcess.start(emulator: emulator)
        defer { Task { await daemon.cleanUp() } }
        let client = daemon.client()
        defer { Task { await client.close() } }
        let uid = try await client.state().user?.uid
        try await emulator.faults(["down": true])

        let held = try await client.idToken(minValidity: 3599)
        #expect(held.uid == uid)
        do {
            _ = try await client.idToken(forceRefresh: true)
            Issue.record("a forced refresh succeeded while the backend was down")
        } catch let error as SesameClientError {
            #expect(error.code == 2000)
            #expect(error.reason == "network-request-failed")
        }
        try await waitUntil("connectivity is offline") { try await client.state().connectivity.rawValue == "offline" }

        try await emulator.faults(["down": false])
        _ = try await client.idToken(forceRefresh: true)
        #expect(try await client.state().connectivity.rawValue == "online")
        #expect(try await client.state().user?.uid == uid)
    }

    @Test("backend answering 503: backend-unavailable; answering garbage: the session is kept")
    func backendErrors() async throws {
        let emulator = try await EmulatorProcess.start()
        defer { Task { await emulator.stop() } }
        let daemon = try await DaemonProcess.start(emulator: emulator)
        defer { Task { await daemon.cleanUp() } }
        let client = daemon.client()
        defer { Task { await client.close() } }
        let uid = try await client.state().user?.uid
        try await emulator.faults(["failNext": 1, "failStatus": 503, "pathPrefix": "/securetoken.googleapis.com"])
        do {
            _ = try await client.idToken(forceRefresh: true)
            Issue.record("no error")
        } catch let error as SesameClientError {
            #expect(error.reason == "backend-unavailable")
        }
        try await emulator.faults(["failNext": 1, "failStatus": 429, "failMessage": "TOO_MANY_ATTEMPTS_TRY_LATER",
                                   "pathPrefix": "/securetoken.googleapis.com"])
        do {
            _ = try await client.idToken(forceRefresh: true)
            Issue.record("no error")
        } catch let error as SesameClientError {
            #expect(error.reason == "too-many-requests")
        }
        // A 200 whose body is not a token answer: garbage, so transient; the session is kept.
        try await emulator.faults(["failNext": 1, "failStatus": 200, "failMessage": "not what you expected",
                                   "pathPrefix": "/securetoken.googleapis.com"])
        do {
            _ = try await client.idToken(forceRefresh: true)
            Issue.record("no error")
        } catch let error as SesameClientError {
            #expect(error.reason == "backend-unavailable")
            #expect(error.code == 2000)
        }
        _ = try await client.idToken(forceRefresh: true)
        #expect(try await client.state().user?.uid == uid)
        #expect(try await client.state().status.rawValue == "anonymous")
    }

    @Test("a revoked refresh token: session-revoked, then a new anonymous user")
    func revoked() async throws {
        let emulator = try await EmulatorProcess.start()
        defer { Task { await emulator.stop() } }
        let daemon = try await DaemonProcess.start(emulator: emulator)
        defer { Task { await daemon.cleanUp() } }
        let client = daemon.client()
        defer { Task { await client.close() } }
        let uid = try #require(try await client.state().user?.uid)
        try await emulator.deleteAccount(uid)
        do {
            _ = try await client.idToken(forceRefresh: true)
            Issue.record("no error")
        } catch let error as SesameClientError {
            #expect(error.reason == "session-revoked")
            #expect(error.code == 4000)
        }
        try await waitUntil("a new anonymous user exists") {
            let state = try await client.state()
            return state.status.rawValue == "anonymous" && state.user?.uid != uid
        }
    }

    @Test("sign-out both ways; the reset guest is deleted at the backend, an account is not")
    func signOutBothWays() async throws {
        let emulator = try await EmulatorProcess.start()
        defer { Task { await emulator.stop() } }
        let daemon = try await DaemonProcess.start(emulator: emulator)
        defer { Task { await daemon.cleanUp() } }
        let client = daemon.client()
        defer { Task { await client.close() } }
        let guest = try #require(try await client.state().user?.uid)
        do {
            _ = try await client.signOut()
            Issue.record("a guest was signed out without reset")
        } catch let error as SesameClientError {
            #expect(error.reason == "requires-reset-confirmation")
        }
        let afterReset = try await client.signOut(reset: true)
        #expect(afterReset.status.rawValue == "anonymous")
        let second = try #require(afterReset.user?.uid)
        #expect(second != guest)
        try await waitUntil("the old guest is gone at the backend") { try await !emulator.accountExists(guest) }

        let linked = try await client.createAccount(email: "out@example.com", password: "secret12")
        #expect(linked.user?.uid == second)
        let afterSignOut = try await client.signOut()
        #expect(afterSignOut.status.rawValue == "anonymous")
        #expect(afterSignOut.user?.uid != second)
        #expect(try await emulator.accountExists(second))
    }

    @Test("SIGTERM: subscribers hear shutdown, the daemon exits 0")
    func sigterm() async throws {
        let emulator = try await EmulatorProcess.start()
        defer { Task { await emulator.stop() } }
        let daemon = try await DaemonProcess.start(emulator: emulator)
        defer { Task { await daemon.cleanUp() } }
        let client = daemon.client()
        defer { Task { await client.close() } }
        let notifications = client.notifications
        let heard = Task {
            for try await notification in notifications {
                if case .shutdown = notification.event { return true }
            }
            return false
        }
        _ = try await client.state()
        try await Task.sleep(for: .milliseconds(300))
        #expect(try await daemon.stop() == 0)
        #expect(try await heard.value)
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
    }

    @Test("systemd hears READY, STATUS, WATCHDOG and STOPPING on NOTIFY_SOCKET")
    func notifySocket() async throws {
        let emulator = try await EmulatorProcess.start()
        defer { Task { await emulator.stop() } }
        let directory = try makeTemporaryDirectory("n")
        let listener = try NotifyListener(path: directory + "/notify")
        let daemon = try await DaemonProcess.start(
            emulator: emulator, environment: ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "400000"],
            directory: directory)
        defer { Task { await daemon.cleanUp() } }
        try await listener.waitFor("READY=1")
        try await listener.waitFor("STATUS=anonymous uid ")
        try await listener.waitFor(", token valid for")
        try await listener.waitFor("WATCHDOG=1")
        #expect(try await daemon.stop() == 0)
        try await listener.waitFor("STOPPING=1")
        let ready = try #require(listener.messages().firstIndex { $0.contains("READY=1") })
        let stopping = try #require(listener.messages().firstIndex { $0.contains("STOPPING=1") })
        #expect(ready < stopping)
    }

    @Test("STATUS= holds no personal data, and none is sent after STOPPING=1")
    func notifyStatusPrivacy() async throws {
        let emulator = try await EmulatorProcess.start()
        defer { Task { await emulator.stop() } }
        let directory = try makeTemporaryDirectory("p")
        let listener = try NotifyListener(path: directory + "/notify")
        let daemon = try await DaemonProcess.start(
            emulator: emulator, environment: ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "200000"],
            directory: directory)
        defer { Task { await daemon.cleanUp() } }
        let client = daemon.client()
        let account = try await client.createAccount(email: "private.person@example.com", password: "secret12")
        _ = try await client.updateProfile(displayName: "Private Person")
        let uid = try #require(account.user?.uid)
        try await listener.waitFor("STATUS=authenticated uid \(uid.prefix(8))")
        try await listener.waitFor("WATCHDOG=1")
        #expect(try await daemon.stop() == 0)
        try await listener.waitFor("STOPPING=1")
        let messages = listener.messages()
        #expect(!messages.contains { $0.contains("private.person") || $0.contains("Private Person") })
        let stopping = try #require(messages.firstIndex { $0.contains("STOPPING=1") })
        let afterStopping = messages[stopping].components(separatedBy: "STOPPING=1").dropFirst().joined()
            + messages[(stopping + 1)...].joined(separator: "\n")
        #expect(!afterStopping.contains("STATUS="))
    }

    @Test("hello names the backend; a sign-in code on Firebase is operation-not-allowed; link and code together is -32602")
    func backendOnTheWire() async throws {
        try await withEmulatorAndDaemon { _, daemon in
            let path = daemon.socketPath
            let hello = try await Task.detached { try rawCall(path, #"{"jsonrpc":"2.0","id":1,"method":"hello"}"#) }.value
            #expect(hello["result"]?["backend"] == "firebase")
            let code = try await Task.detached {
                try rawCall(
                    path, #"{"jsonrpc":"2.0","id":2,"method":"completeSignInLink","params":{"email":"a@example.com","code":"123456"}}"#)
            }.value
            #expect(code["error"]?["code"] == 1000)
            #expect(code["error"]?["data"]?["reason"] == "operation-not-allowed")
            let both = try await Task.detached {
                try rawCall(
                    path,
                    #"{"jsonrpc":"2.0","id":3,"method":"completeSignInLink","params":{"link":"https://x.invalid","code":"1"}}"#)
            }.value
            #expect(both["error"]?["code"] == -32602)
        }
    }

    @Test("socket activation: started by the first connection on the socket systemd-socket-activate holds")
    func socketActivation() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-socket-activate")
            || FileManager.default.isExecutableFile(atPath: "/bin/systemd-socket-activate")
        else {
            Issue.record("systemd-socket-activate is missing: install the systemd package (make deps does)")
            return
        }
        let emulator = try await EmulatorProcess.start()
        defer { Task { await emulator.stop() } }
        let directory = try makeTemporaryDirectory("a")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/act.sock"
        try """
            [firebase]
            api_key = "e2e"
            project_id = "\(EmulatorProcess.project)"
            auth_emulator_host = "\(emulator.authHost)"
            [socket]
            path = "\(directory)/unused.sock"
            """.write(toFile: directory + "/c.toml", atomically: true, encoding: .utf8)
        // The activator runs detached (not a child of this test process): Foundation's Process
        // loses track of its other children once a child exec()s another program.
        let command = [
            "/usr/bin/systemd-socket-activate", "-l", socket, "--fdname=control", Binaries.path("sesamed"),
            "--config", directory + "/c.toml", "--state-dir", directory + "/state",
        ].map { "'\($0)'" }.joined(separator: " ")
        let launcher = try await runCommand(
            "/bin/sh", ["-c", "\(command) > \(directory)/activate.log 2>&1 < /dev/null & echo $!"])
        let activatorPID = Int32(launcher.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        defer { if activatorPID > 0 { kill(activatorPID, SIGTERM) } }
        var activatorLog: String { (try? String(contentsOfFile: directory + "/activate.log", encoding: .utf8)) ?? "" }
        try await waitUntil("the activator listens") { FileManager.default.fileExists(atPath: socket) }
        #expect(!FileManager.default.fileExists(atPath: directory + "/state/keyring"))
        let result: CommandResult
        do {
            result = try await runCommand(
                Binaries.path("sesamectl"), ["status", "--json"], environment: ["SESAME_SOCKET": socket],
                timeout: .seconds(15))
        } catch {
            Issue.record("sesamectl did not finish; the activator said: \(activatorLog)")
            throw error
        }
        #expect(result.status == 0, "\(result.stderr) activator: \(activatorLog)")
        try await waitUntil("the activated daemon is anonymous") {
            let r = try await runCommand(Binaries.path("sesamectl"), ["status", "--json"], environment: ["SESAME_SOCKET": socket])
            return r.stdout.contains("\"anonymous\"")
        }
        #expect(activatorLog.contains("Listening on the socket systemd passed"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/unused.sock"))
    }

    @Test("roles: a peer running as nobody gets only what [access] grants")
    func rolesForNobody() async throws {
        let emulator = try await EmulatorProcess.start()
        defer { Task { await emulator.stop() } }
        let daemon = try await DaemonProcess.start(
            emulator: emulator,
            settings: ["socket": ["mode": "\"0666\""], "access": ["observers": "[\"user:nobody\"]", "readers": "[]"]])
        defer { Task { await daemon.cleanUp() } }
        chmod(daemon.directory, 0o755)
        // A copy nobody can reach wherever the build folder is (CI's clone may sit under a 0700 home).
        let ctl = daemon.directory + "/sesamectl"
        try FileManager.default.copyItem(atPath: Binaries.path("sesamectl"), toPath: ctl)
        chmod(ctl, 0o755)
        func asNobody(_ arguments: [String]) async throws -> CommandResult {
            try await runCommand("/usr/sbin/runuser", ["-u", "nobody", "--", ctl] + arguments + ["--socket", daemon.socketPath])
        }
        let status = try await asNobody(["status", "--json"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("\"anonymous\""))
        let token = try await asNobody(["token"])
        #expect(token.status == 1)
        #expect(token.stdout.isEmpty)
        #expect(token.stderr.contains("reader"))
        let signOut = try await asNobody(["sign-out", "--reset"])
        #expect(signOut.status == 1)
        #expect(signOut.stderr.contains("manager"))
        #expect(try await daemon.stateJSON()["status"] as? String == "anonymous")
    }

    @Test("configuration errors stop sesamed with 78 and a message naming the key")
    func configurationErrors() async throws {
        let directory = try makeTemporaryDirectory("c")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cases: [(String, String)] = [
            ("[firebase]\napi_key = \"k\"\nproject_id = \"p\"\n[session]\nrefresh_margn = 3\n", "session.refresh_margn"),
            ("[firebase]\napi_key = \"k\"\nproject_id = \"p\"\n[session]\nrefresh_margin = \"soon\"\n", "session.refresh_margin"),
            ("[firebase]\napi_key = \"k\"\n", "firebase.project_id"),
            ("[firebase]\napi_key = \"k\"\nproject_id = \"p\"\n[access]\nreaders = [\"everyone\"]\n", "access.readers"),
            ("[firebase\n", "c.toml"),
        ]
        for (text, key) in cases {
            try text.write(toFile: directory + "/c.toml", atomically: true, encoding: .utf8)
            let result = try await runCommand(
                Binaries.path("sesamed"), ["--config", directory + "/c.toml", "--state-dir", directory + "/state"])
            #expect(result.status == 78, "\(text)")
            #expect(result.stderr.contains(key), "\(result.stderr)")
        }
        let tooLong = "/tmp/" + String(repeating: "x", count: 120) + "/s.sock"
        try "[firebase]\napi_key = \"k\"\nproject_id = \"p\"\n".write(toFile: directory + "/c.toml", atomically: true, encoding: .utf8)
        let result = try await runCommand(
            Binaries.path("sesamed"), ["--config", directory + "/c.toml", "--socket", tooLong, "--state-dir", directory + "/state"])
        #expect(result.status == 78)
        #expect(result.stderr.contains(tooLong))
    }

    @Test("a corrupt keyring stops sesamed with 65 and is left as it was; a second daemon on one keyring gets 75")
    func keyringErrors() async throws {
        let emulator = try await EmulatorProcess.start()
        defer { Task { await emulator.stop() } }
        let daemon = try await DaemonProcess.start(emulator: emulator)
        defer { Task { await daemon.cleanUp() } }

        let second = try await runCommand(
            Binaries.path("sesamed"),
            ["--config", daemon.configPath, "--state-dir", daemon.stateDirectory, "--socket", daemon.directory + "/2.sock"])
        #expect(second.status == 75)
        #expect(second.stderr.contains(daemon.stateDirectory + "/keyring"))

        #expect(try await daemon.stop() == 0)
        let keyring = daemon.stateDirectory + "/keyring"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: keyring))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: keyring))
        let corrupt = try await runCommand(
            Binaries.path("sesamed"), ["--config", daemon.configPath, "--state-dir", daemon.stateDirectory])
        #expect(corrupt.status == 65)
        #expect(corrupt.stderr.contains(keyring))
        #expect(try Data(contentsOf: URL(fileURLWithPath: keyring)) == bytes)
    }
}
