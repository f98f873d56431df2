import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("Supabase GoTrue: GitHub through /authorize, the fake provider and /callback")
struct GoTrueGitHubFlowTests {
    @Test func githubSignsInThroughTheBrowserFlow() async throws {
        try await SupabaseTestEmulator.with { emu in
            let flow = GoTrueBrowserFlowTests()
            let callback = try await flow.toCallback(
                emu, provider: "github", fakeId: "github.com", email: "Octo@Example.com")
            let back = try await emu.call("GET", String(callback.dropFirst(emu.base.count)), apikey: nil)
            #expect(back.status == 302)
            let code = try #require(FakeIdP.query(back.header("location"))["code"])
            let session = try await flow.pkce(emu, code: code, verifier: GoTrueBrowserFlowTests.verifier)
            #expect(session.status == 200, "\(session.json.jsonString)")
            let user = try #require(session.json["user"])
            #expect(user["email"] == "octo@example.com")
            #expect(user["app_metadata"]?["provider"] == "github")
            let identity = try #require(user["identities"]?.arrayValue?.first)
            #expect(identity["provider"] == "github")
            #expect(identity["identity_data"]?["user_name"] == "octo")
            #expect(session.json["provider_token"]?.stringValue?.hasPrefix("gho_") == true)
            #expect(
                SupabaseTestEmulator.claims(session.json["access_token"])["amr"]?.arrayValue?.first?["method"]
                    == "oauth")
            let settings = try await emu.call("GET", "/auth/v1/settings")
            #expect(settings.json["external"]?["github"] == true)
        }
    }
}
