import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("Supabase port: fault extension and call counters")
struct SupabaseFaultTests {
    @Test func faultsAndCountersAreThePortsOwn() async throws {
        try await SupabaseTestEmulator.with { emu in
            let set = try await emu.call(
                "POST", "/sesame/v1/faults",
                ["failNext": 1, "failStatus": 429, "failMessage": "over_request_rate_limit"], apikey: nil)
            #expect(set.status == 200)
            let limited = try await emu.call("POST", "/auth/v1/signup", [:])
            #expect(limited.status == 429)
            #expect(limited.goTrueCode == "over_request_rate_limit")
            let session = try await emu.anonymousSession()
            _ = try await emu.refresh(session["refresh_token"]?.text)
            _ = try await emu.admin("GET", "users/\(session["user"]?["id"]?.text ?? "")")
            _ = try await emu.rest("GET", "usernames?key=eq.a")
            _ = try await emu.rest("POST", "rpc/delete_user", [:])
            let report = try await emu.call("GET", "/sesame/v1/faults", apikey: nil).json
            #expect(report["calls"]?["signup"] == 2)
            #expect(report["calls"]?["token"] == 1)
            #expect(report["calls"]?["admin/users"] == 1)
            #expect(report["calls"]?["rest:usernames"] == 1)
            #expect(report["calls"]?["rest:rpc/delete_user"] == 1)
            // The Firebase auth port keeps its own counters.
            let firebase = try await TestEmulator(emulator: emu.emulator, time: emu.time).request(
                "GET", "http://127.0.0.1:\(emu.emulator.authPort)/sesame/v1/faults")
            #expect(firebase.json["calls"]?["signup"] == nil)
            _ = try await emu.call(
                "POST", "/sesame/v1/faults",
                ["failNext": 1, "failStatus": 503, "failMessage": "UNAVAILABLE", "pathPrefix": "/rest/v1/"], apikey: nil
            )
            #expect(try await emu.call("POST", "/auth/v1/signup", [:]).status == 200)
            let unavailable = try await emu.rest("GET", "usernames")
            #expect(unavailable.status == 503)
            #expect(unavailable.json["error_code"] == "unexpected_failure")
            #expect(unavailable.json["message"] == "UNAVAILABLE")
        }
    }
}
