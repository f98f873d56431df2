import SesameEmulatorTesting
import SesameLocalAPI
import Testing

@testable import SesameEmulator

/// The fault-matrix additions (`retryAfter`, `reset`, `garbage`, `clockSkewSeconds`) on the
/// Supabase port.
@Suite("Supabase port: retryAfter, reset, garbage, clock skew")
struct SupabaseFaultExtensionTests {
    func setFaults(_ emu: SupabaseTestEmulator, _ body: JSONValue) async throws -> HTTPAnswer {
        try await emu.call("POST", "/sesame/v1/faults", body, apikey: nil)
    }

    @Test func retryAfterIsSentOnInjectedFailures() async throws {
        try await SupabaseTestEmulator.with { emu in
            _ = try await setFaults(
                emu, ["failNext": 1, "failStatus": 429, "failMessage": "over_request_rate_limit", "retryAfter": 12])
            let limited = try await emu.call("POST", "/auth/v1/signup", [:])
            #expect(limited.status == 429)
            #expect(limited.goTrueCode == "over_request_rate_limit")
            #expect(limited.header("Retry-After") == "12")
            let next = try await emu.call("POST", "/auth/v1/signup", [:])
            #expect(next.status == 200)
            #expect(next.header("Retry-After") == nil)
        }
    }

    @Test func resetAndGarbageReachTheSupabasePort() async throws {
        try await SupabaseTestEmulator.with { emu in
            let port = try #require(emu.emulator.supabasePort)
            let request =
                "GET /auth/v1/settings HTTP/1.1\r\nHost: 127.0.0.1\r\napikey: \(emu.anonKey)\r\nContent-Length: 0\r\n\r\n"
            _ = try await setFaults(emu, ["reset": true])
            let reset = try await RawExchange.send(request, port: port)
            #expect(reset.end == .reset)
            #expect(reset.received.isEmpty)

            _ = try await setFaults(emu, ["reset": false, "garbage": true, "pathPrefix": "/rest/v1/"])
            #expect(try await emu.call("GET", "/auth/v1/settings").status == 200)
            let garbled = try await emu.rest("GET", "usernames")
            #expect(garbled.status == 200)
            #expect(throws: JSONValue.ParseError.self) { try JSONCoding.parse(garbled.bytes) }
            _ = try await emu.call("DELETE", "/sesame/v1/faults", apikey: nil)
            #expect(try await emu.rest("GET", "usernames").json == [])
        }
    }

    @Test func clockSkewMovesTheTokensTheSupabasePortIssues() async throws {
        try await SupabaseTestEmulator.with { emu in
            let now = emu.time.clock.milliseconds() / 1000
            _ = try await setFaults(emu, ["clockSkewSeconds": 900])
            let ahead = try await emu.anonymousSession()
            let claims = SupabaseTestEmulator.claims(ahead["access_token"])
            #expect(claims["iat"]?.intValue == now + 900)
            #expect(ahead["expires_at"]?.intValue == claims["exp"]?.intValue)
            #expect(try await emu.call("GET", "/auth/v1/user", bearer: ahead["access_token"]?.text).status == 200)

            // The Firebase auth port keeps its own clock.
            let firebase = TestEmulator(emulator: emu.emulator, time: emu.time)
            #expect(TestEmulator.claims(try await firebase.signUpAnonymously()["idToken"])["iat"]?.intValue == now)

            // Back to no skew: a token issued 15 minutes "ahead" is still accepted; new ones are now.
            _ = try await emu.call("DELETE", "/sesame/v1/faults", apikey: nil)
            #expect(try await emu.call("GET", "/auth/v1/user", bearer: ahead["access_token"]?.text).status == 200)
            #expect(
                SupabaseTestEmulator.claims(try await emu.anonymousSession()["access_token"])["iat"]?.intValue == now)
        }
    }
}
