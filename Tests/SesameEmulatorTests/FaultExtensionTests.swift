import NIOCore
import SesameEmulatorTesting
import SesameLocalAPI
import Testing

@testable import SesameEmulator

/// The fault-matrix additions: `retryAfter`, `reset`, `garbage`, `clockSkewSeconds`, and a
/// latency longer than the caller is willing to wait.
@Suite("Sesame fault extension: retryAfter, reset, garbage, clock skew, long latency")
struct FaultExtensionTests {
    func setFaults(_ emu: TestEmulator, base: String, _ body: JSONValue) async throws -> HTTPAnswer {
        try await emu.request(
            "POST", "\(base)/sesame/v1/faults", body: body.serialized(),
            headers: [("Content-Type", "application/json")])
    }

    static let signUpRequest =
        "POST /identitytoolkit.googleapis.com/v1/accounts:signUp?key=k HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"

    @Test func retryAfterIsSentOnInjectedFailuresAsSecondsOrAsText() async throws {
        try await TestEmulator.with { emu in
            let set = try await setFaults(
                emu, base: emu.authBase,
                ["failNext": 1, "failStatus": 429, "failMessage": "TOO_MANY_ATTEMPTS_TRY_LATER", "retryAfter": 7])
            #expect(set.json["faults"]?["retryAfter"] == 7)
            let failed = try await emu.auth("accounts:signUp", [:])
            #expect(failed.status == 429)
            #expect(failed.errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
            #expect(failed.header("Retry-After") == "7")
            let succeeded = try await emu.auth("accounts:signUp", [:])
            #expect(succeeded.status == 200)
            #expect(succeeded.header("Retry-After") == nil)

            let date = "Wed, 21 Oct 2026 07:28:00 GMT"
            _ = try await setFaults(emu, base: emu.databaseBase, ["failNext": 1, "retryAfter": .string(date)])
            let database = try await emu.database("GET", "/a.json")
            #expect(database.status == 503)
            #expect(database.header("Retry-After") == date)

            _ = try await setFaults(emu, base: emu.authBase, ["failNext": 1, "retryAfter": nil])
            #expect(try await emu.auth("accounts:signUp", [:]).header("Retry-After") == nil)
            #expect(try await setFaults(emu, base: emu.authBase, ["retryAfter": -1]).status == 400)
            #expect(try await setFaults(emu, base: emu.authBase, ["retryAfter": true]).status == 400)
        }
    }

    @Test func resetSendsRSTWhileDownSendsFIN() async throws {
        try await TestEmulator.with { emu in
            _ = try await setFaults(emu, base: emu.authBase, ["reset": true])
            let reset = try await RawExchange.send(Self.signUpRequest, port: emu.emulator.authPort)
            #expect(reset.end == .reset)
            #expect(reset.received.isEmpty)

            _ = try await setFaults(emu, base: emu.authBase, ["reset": false, "down": true])
            let down = try await RawExchange.send(Self.signUpRequest, port: emu.emulator.authPort)
            #expect(down.end == .closed)
            #expect(down.received.isEmpty)

            _ = try await setFaults(emu, base: emu.authBase, ["down": false])
            let answered = try await RawExchange.send(Self.signUpRequest, port: emu.emulator.authPort)
            #expect(String(decoding: answered.received, as: UTF8.self).hasPrefix("HTTP/1.1 200"))

            _ = try await setFaults(emu, base: emu.databaseBase, ["reset": true])
            await #expect(throws: (any Error).self) { _ = try await emu.database("GET", "/a.json") }
            let report = try await emu.request("GET", "\(emu.databaseBase)/sesame/v1/faults")
            #expect(report.json["faults"]?["reset"] == true)
            #expect(report.json["calls"]?["GET"] == 1)
        }
    }

    @Test func garbageAnswers200WithABodyThatIsNotJSON() async throws {
        try await TestEmulator.with { emu in
            _ = try await setFaults(
                emu, base: emu.authBase, ["garbage": true, "pathPrefix": "/securetoken.googleapis.com/"])
            let anon = try await emu.signUpAnonymously()
            let refreshed = try await emu.refresh(try #require(anon["refreshToken"]?.stringValue))
            #expect(refreshed.status == 200)
            #expect(throws: JSONValue.ParseError.self) { try JSONCoding.parse(refreshed.bytes) }
            _ = try await setFaults(emu, base: emu.authBase, ["garbage": false])
            #expect(try await emu.refresh(try #require(anon["refreshToken"]?.stringValue)).json["id_token"] != nil)

            _ = try await setFaults(emu, base: emu.databaseBase, ["garbage": true])
            let read = try await emu.database("GET", "/a.json")
            #expect(read.status == 200)
            #expect(throws: JSONValue.ParseError.self) { try JSONCoding.parse(read.bytes) }
        }
    }

    @Test func clockSkewMovesEverythingTheAuthPortIssuesAndChecks() async throws {
        try await TestEmulator.with { emu in
            let now = emu.time.clock.milliseconds() / 1000
            _ = try await setFaults(emu, base: emu.authBase, ["clockSkewSeconds": 600])
            let ahead = try await emu.signUp(email: "skew@example.com")
            let claims = TestEmulator.claims(ahead["idToken"])
            #expect(claims["iat"]?.intValue == now + 600)
            #expect(claims["exp"]?.intValue == now + 600 + 3600)
            let lookup = try await emu.auth("accounts:lookup", ["idToken": ahead["idToken"]!])
            #expect(lookup.status == 200)
            #expect(lookup.json["users"]?.arrayValue?.first?["createdAt"] == .string(String((now + 600) * 1000)))

            // Ten minutes behind: a token issued "in the future" is still accepted, new ones are older.
            _ = try await setFaults(emu, base: emu.authBase, ["clockSkewSeconds": -600])
            #expect(try await emu.auth("accounts:lookup", ["idToken": ahead["idToken"]!]).status == 200)
            let behind = try await emu.signUpAnonymously()
            #expect(TestEmulator.claims(behind["idToken"])["iat"]?.intValue == now - 600)

            // The database port has its own clock.
            let written = try await emu.database("PUT", "/t.json", [".sv": "timestamp"])
            #expect(written.json.intValue == now * 1000)
            _ = try await setFaults(emu, base: emu.databaseBase, ["clockSkewSeconds": 30])
            #expect(try await emu.database("PUT", "/t.json", [".sv": "timestamp"]).json.intValue == (now + 30) * 1000)
            _ = try await emu.request("DELETE", "\(emu.authBase)/sesame/v1/faults")
            #expect(TestEmulator.claims(try await emu.signUpAnonymously()["idToken"])["iat"]?.intValue == now)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func latencyBeyondTheCallersTimeoutIsAnsweredLateAndNeverHoldsUpStop() async throws {
        try await TestEmulator.with { emu in
            let prefix = "/identitytoolkit.googleapis.com/v1/accounts:signUp"
            _ = try await setFaults(emu, base: emu.authBase, ["latencyMs": 1500, "pathPrefix": .string(prefix)])
            // The caller gives up long before the answer comes (but late enough for its request
            // to arrive on a slow, sanitized machine: the count below includes it).
            await #expect(throws: (any Error).self) {
                _ = try await emu.request(
                    "POST", "\(emu.authBase)\(prefix)?key=k", body: Array("{}".utf8), timeout: .milliseconds(500))
            }
            // Meanwhile other paths are served, and a patient caller gets its late answer.
            #expect(
                try await emu.auth(
                    "accounts:createAuthUri", ["identifier": "a@example.com", "continueUri": "http://x"]
                ).status == 200)
            #expect(try await emu.auth("accounts:signUp", [:]).status == 200)
            let calls = try await emu.request("GET", "\(emu.authBase)/sesame/v1/faults").json["calls"]
            #expect(calls?["accounts:signUp"] == 2)

            // A latency far beyond any test's patience: stopping the emulator ends the wait.
            _ = try await setFaults(emu, base: emu.authBase, ["latencyMs": 600_000])
            await #expect(throws: (any Error).self) {
                _ = try await emu.request(
                    "POST", "\(emu.authBase)\(prefix)?key=k", body: Array("{}".utf8), timeout: .milliseconds(100))
            }
        }
    }
}
