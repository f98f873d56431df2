import Foundation
import SesameLocalAPI
import SesameTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `sesamectl status` and `token` as a person and a script use them (issue 4), online, offline
/// and for users without a role.
@Suite("sesamectl end to end: status and token", .serialized, .timeLimit(.minutes(3)))
struct SesamectlStatusTests: SesamectlTestHelpers {
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
            let ctl = BuiltBinaries.path("sesamectl")
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
                    ["--reuid=nobody", "--regid=nogroup", "--clear-groups", BuiltBinaries.path("sesamectl")]
                        + arguments,
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
}
