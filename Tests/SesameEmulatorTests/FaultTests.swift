import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("Sesame fault-injection extension")
struct FaultTests {
    func setFaults(_ emu: TestEmulator, base: String, _ body: JSONValue) async throws -> HTTPAnswer {
        try await emu.request(
            "POST", "\(base)/sesame/v1/faults", body: body.serialized(),
            headers: [("Content-Type", "application/json")])
    }

    @Test func failNextFailsExactlyThatManyRequestsWithTheEnvelope() async throws {
        try await TestEmulator.with { emu in
            let set = try await setFaults(emu, base: emu.authBase, ["failNext": 2])
            #expect(set.json["faults"]?["failNext"] == 2)
            #expect(set.json["faults"]?["failStatus"] == 503)
            for _ in 0..<2 {
                let failed = try await emu.auth("accounts:signUp", [:])
                #expect(failed.status == 503)
                #expect(failed.errorMessage == "UNAVAILABLE")
                #expect(failed.json["error"]?["code"] == 503)
            }
            #expect(try await emu.auth("accounts:signUp", [:]).status == 200)
            _ = try await setFaults(
                emu, base: emu.authBase,
                ["failNext": 1, "failStatus": 400, "failMessage": "TOO_MANY_ATTEMPTS_TRY_LATER"])
            let custom = try await emu.auth("accounts:signUp", [:])
            #expect(custom.status == 400)
            #expect(custom.errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
        }
    }

    @Test func pathPrefixLimitsFaultsAndSesamePathsAreNeverFaulted() async throws {
        try await TestEmulator.with { emu in
            let anon = try await emu.signUpAnonymously()
            _ = try await setFaults(
                emu, base: emu.authBase, ["failNext": 1, "pathPrefix": "/securetoken.googleapis.com/"])
            #expect(try await emu.auth("accounts:lookup", ["idToken": anon["idToken"]!]).status == 200)
            let refresh = try await emu.refresh(try #require(anon["refreshToken"]?.stringValue))
            #expect(refresh.status == 503)
            #expect(try await emu.refresh(try #require(anon["refreshToken"]?.stringValue)).status == 200)
            // Emulator control paths are not faulted by default.
            _ = try await setFaults(emu, base: emu.authBase, ["failNext": 1, "pathPrefix": nil])
            #expect(
                try await emu.request("GET", "\(emu.authBase)/emulator/v1/projects/demo-project/oobCodes").status == 200
            )
            #expect(try await emu.auth("accounts:signUp", [:]).status == 503)
        }
    }

    @Test func latencyDelaysMatchingRequests() async throws {
        try await TestEmulator.with { emu in
            _ = try await setFaults(emu, base: emu.authBase, ["latencyMs": 300])
            let clock = ContinuousClock()
            let start = clock.now
            #expect(try await emu.auth("accounts:signUp", [:]).status == 200)
            #expect(clock.now - start >= .milliseconds(300))
            _ = try await setFaults(emu, base: emu.authBase, ["latencyMs": 0])
            #expect(try await emu.request("GET", "\(emu.authBase)/sesame/v1/faults").json["faults"]?["latencyMs"] == 0)
        }
    }

    @Test func downClosesConnectionsUntilTurnedOff() async throws {
        try await TestEmulator.with { emu in
            _ = try await setFaults(emu, base: emu.authBase, ["down": true])
            await #expect(throws: (any Error).self) {
                _ = try await emu.auth("accounts:signUp", [:])
            }
            let report = try await emu.request("GET", "\(emu.authBase)/sesame/v1/faults")
            #expect(report.json["faults"]?["down"] == true)
            _ = try await setFaults(emu, base: emu.authBase, ["down": false])
            #expect(try await emu.auth("accounts:signUp", [:]).status == 200)

            _ = try await setFaults(emu, base: emu.databaseBase, ["down": true])
            await #expect(throws: (any Error).self) {
                _ = try await emu.database("GET", "/a.json")
            }
            #expect(try await emu.auth("accounts:signUp", [:]).status == 200)
            _ = try await emu.request("DELETE", "\(emu.databaseBase)/sesame/v1/faults")
            #expect(try await emu.database("GET", "/a.json").status == 200)
        }
    }

    @Test func tokenTtlSecondsShortensNewTokens() async throws {
        try await TestEmulator.with { emu in
            _ = try await setFaults(emu, base: emu.authBase, ["tokenTtlSeconds": 5])
            let anon = try await emu.signUpAnonymously()
            #expect(anon["expiresIn"] == "5")
            let claims = TestEmulator.claims(anon["idToken"])
            #expect(claims["exp"]?.intValue == (claims["iat"]?.intValue ?? 0) + 5)
            let refreshed = try await emu.refresh(try #require(anon["refreshToken"]?.stringValue))
            #expect(refreshed.json["expires_in"] == "5")
            _ = try await emu.request("DELETE", "\(emu.authBase)/sesame/v1/faults")
            #expect(try await emu.signUpAnonymously()["expiresIn"] == "3600")
        }
    }

    @Test func tokenExpiresInIsSentVerbatimUntilCleared() async throws {
        try await TestEmulator.with { emu in
            let set = try await setFaults(emu, base: emu.authBase, ["tokenExpiresIn": "1e21"])
            #expect(set.json["faults"]?["tokenExpiresIn"] == "1e21")
            let anon = try await emu.signUpAnonymously()
            #expect(anon["expiresIn"] == "1e21")
            let claims = TestEmulator.claims(anon["idToken"])
            #expect(claims["exp"]?.intValue == (claims["iat"]?.intValue ?? 0) + 3600)
            let refreshed = try await emu.refresh(try #require(anon["refreshToken"]?.stringValue))
            #expect(refreshed.json["expires_in"] == "1e21")
            _ = try await setFaults(emu, base: emu.authBase, ["tokenExpiresIn": .null])
            #expect(try await emu.signUpAnonymously()["expiresIn"] == "3600")
        }
    }

    @Test func countersCountCallsPerEndpointAndReset() async throws {
        try await TestEmulator.with { emu in
            let anon = try await emu.signUpAnonymously()
            _ = try await emu.signUpAnonymously()
            _ = try await emu.refresh(try #require(anon["refreshToken"]?.stringValue))
            _ = try await emu.admin("accounts:lookup", ["localId": [anon["localId"]!]])
            _ = try await emu.database("PUT", "/x.json", 1)
            _ = try await emu.database("GET", "/x.json")
            _ = try await emu.database("GET", "/x.json")
            let auth = try await emu.request("GET", "\(emu.authBase)/sesame/v1/faults")
            #expect(auth.json["calls"]?["accounts:signUp"] == 2)
            #expect(auth.json["calls"]?["token"] == 1)
            #expect(auth.json["calls"]?["accounts:lookup"] == 1)
            let database = try await emu.request("GET", "\(emu.databaseBase)/sesame/v1/faults")
            #expect(database.json["calls"] == ["PUT": 1, "GET": 2])
            let cleared = try await emu.request("DELETE", "\(emu.authBase)/sesame/v1/faults")
            #expect(cleared.json["calls"] == .object([:]))
            #expect(cleared.json["faults"]?["tokenTtlSeconds"] == 3600)
        }
    }

    @Test func databaseFaultsUseTheDatabaseEnvelope() async throws {
        try await TestEmulator.with { emu in
            _ = try await setFaults(emu, base: emu.databaseBase, ["failNext": 1])
            let failed = try await emu.database("GET", "/a.json")
            #expect(failed.status == 503)
            #expect(failed.json == ["error": "UNAVAILABLE"])
            #expect(try await emu.database("GET", "/a.json").status == 200)
            let bad = try await setFaults(emu, base: emu.databaseBase, ["failNext": "many"])
            #expect(bad.status == 400)
        }
    }
}
