import Foundation
import SesameCore
import SesameEmulatorTesting
import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("Supabase GoTrue: /authorize, /callback, the pkce grant and token_hash sign-in")
struct GoTrueBrowserFlowTests {
    static let verifier = "pkce-verifier-0123456789-0123456789-0123456789-abc"
    static let redirect = "http://127.0.0.1:41234/done?state=mine"

    /// `/authorize` → the fake provider's page → its approval: answers the `/callback` URL.
    func toCallback(
        _ emu: SupabaseTestEmulator, provider: String = "google", fakeId: String = "google.com", email: String,
        deny: Bool = false
    ) async throws -> String {
        let authorize = PercentEncoding.url(
            emu.base + "/auth/v1/authorize",
            query: [
                ("provider", provider), ("redirect_to", Self.redirect),
                ("code_challenge", FakeIdP.challenge(Self.verifier)), ("code_challenge_method", "s256"),
            ])
        let start = try await TestEmulator(emulator: emu.emulator, time: emu.time).request(
            "GET", authorize, client: TestEmulator.noRedirects)
        #expect(start.status == 302, "\(start.json.jsonString)")
        let location = try #require(start.header("location"))
        #expect(location.hasPrefix(emu.base + "/emulator/v1/idp/\(fakeId)/authorize?"))
        #expect(FakeIdP.query(location)["redirect_uri"] == emu.base + "/auth/v1/callback")
        let idp = FakeIdP(TestEmulator(emulator: emu.emulator, time: emu.time), fakeId, origin: emu.base)
        let back = try await idp.consent(location, email: email, deny: deny)
        #expect(back.status == 302)
        let callback = try #require(back.header("location"))
        #expect(callback.hasPrefix(emu.base + "/auth/v1/callback?"))
        return callback
    }

    func pkce(_ emu: SupabaseTestEmulator, code: String?, verifier: String) async throws -> HTTPAnswer {
        try await emu.call(
            "POST", "/auth/v1/token?grant_type=pkce",
            ["auth_code": code.map(JSONValue.string) ?? .null, "code_verifier": .string(verifier)])
    }

    @Test func authorizeCallbackAndPkceGrantSignIn() async throws {
        try await SupabaseTestEmulator.with { emu in
            let callback = try await toCallback(emu, email: "Pkce@Example.com")
            let back = try await emu.call("GET", String(callback.dropFirst(emu.base.count)), apikey: nil)
            #expect(back.status == 302)
            let target = try #require(back.header("location"))
            #expect(target.hasPrefix("http://127.0.0.1:41234/done?state=mine&code="))
            let code = try #require(FakeIdP.query(target)["code"])

            let wrong = try await pkce(emu, code: code, verifier: "not-the-verifier-0123456789-0123456789-0123456789")
            #expect(wrong.status == 400 && wrong.goTrueCode == "bad_code_verifier")
            let session = try await pkce(emu, code: code, verifier: Self.verifier)
            #expect(session.status == 200, "\(session.json.jsonString)")
            #expect(session.json["user"]?["email"] == "pkce@example.com")
            #expect(session.json["user"]?["identities"]?.arrayValue?.first?["provider"] == "google")
            #expect(session.json["provider_token"]?.stringValue?.isEmpty == false)
            #expect(
                SupabaseTestEmulator.claims(session.json["access_token"])["amr"]?.arrayValue?.first?["method"]
                    == "oauth")
            let used = try await pkce(emu, code: code, verifier: Self.verifier)
            #expect(used.status == 404 && used.goTrueCode == "flow_state_not_found")
            let empty = try await pkce(emu, code: nil, verifier: Self.verifier)
            #expect(empty.status == 400 && empty.goTrueCode == "validation_failed")

            // The same person again is the same user.
            let again = try await emu.call(
                "GET", String(try await toCallback(emu, email: "pkce@example.com").dropFirst(emu.base.count)),
                apikey: nil)
            let code2 = try #require(FakeIdP.query(again.header("location"))["code"])
            let second = try await pkce(emu, code: code2, verifier: Self.verifier)
            #expect(second.json["user"]?["id"] == session.json["user"]?["id"])
        }
    }

    @Test func aReplayedCallbackAndAnExpiredFlowAreRefused() async throws {
        try await SupabaseTestEmulator.with { emu in
            let callback = String(try await toCallback(emu, email: "replay@example.com").dropFirst(emu.base.count))
            #expect(try await emu.call("GET", callback, apikey: nil).status == 302)
            let replay = try await emu.call("GET", callback, apikey: nil)
            #expect(FakeIdP.query(replay.header("location"))["error_code"] == "flow_state_already_used")

            let late = String(try await toCallback(emu, email: "late@example.com").dropFirst(emu.base.count))
            emu.time.advance(seconds: 301)
            let expired = try await emu.call("GET", late, apikey: nil)
            #expect(expired.status == 303)
            #expect(FakeIdP.query(expired.header("location"))["error_code"] == "bad_oauth_state")
            let forged = try await emu.call(
                "GET", "/auth/v1/callback?code=x&state=\(UUID().uuidString.lowercased())", apikey: nil)
            #expect(FakeIdP.query(forged.header("location"))["error_code"] == "bad_oauth_state")
        }
    }

    @Test func aDenialAtTheProviderRedirectsWithTheError() async throws {
        try await SupabaseTestEmulator.with { emu in
            let callback = try await toCallback(emu, email: "", deny: true)
            let back = try await emu.call("GET", String(callback.dropFirst(emu.base.count)), apikey: nil)
            #expect(back.status == 302)
            let target = try #require(back.header("location"))
            #expect(target.hasPrefix("http://127.0.0.1:41234/done?state=mine&error=access_denied"))
            #expect(FakeIdP.query(target)["error_description"]?.isEmpty == false)
            #expect(FakeIdP.fragment(target)["error"] == "access_denied")
            #expect(FakeIdP.query(target)["code"] == nil)
        }
    }

    @Test func disabledUnknownProvidersAndBadChallengesAreValidationFailed() async throws {
        try await SupabaseTestEmulator.with { emu in
            let gitlab = try await emu.call("GET", "/auth/v1/authorize?provider=gitlab", apikey: nil)
            #expect(gitlab.status == 400 && gitlab.goTrueCode == "validation_failed")
            #expect(gitlab.json["msg"] == "Unsupported provider: provider is not enabled")
            let unknown = try await emu.call("GET", "/auth/v1/authorize?provider=nope", apikey: nil)
            #expect(unknown.json["msg"] == "Unsupported provider: Provider nope could not be found")
            let halfPKCE = try await emu.call(
                "GET", "/auth/v1/authorize?provider=google&code_challenge=abc", apikey: nil)
            #expect(halfPKCE.json["msg"] == "PKCE flow requires code_challenge_method and code_challenge")
            let custom = try await emu.call("GET", "/auth/v1/authorize?provider=custom:acme", apikey: nil)
            #expect(custom.status == 302)
            #expect(custom.header("location")?.hasPrefix(emu.base + "/emulator/v1/idp/acme/authorize?") == true)
        }
    }

    @Test func withoutAChallengeTheCallbackPutsTheSessionInTheFragment() async throws {
        try await SupabaseTestEmulator.with { emu in
            let start = try await emu.call(
                "GET", "/auth/v1/authorize?provider=azure&redirect_to=http%3A%2F%2F127.0.0.1%3A41234%2Fimplicit",
                apikey: nil)
            let location = try #require(start.header("location"))
            #expect(location.hasPrefix(emu.base + "/emulator/v1/idp/microsoft.com/authorize?"))
            let idp = FakeIdP(
                TestEmulator(emulator: emu.emulator, time: emu.time), "microsoft.com", origin: emu.base)
            let callback = try #require(try await idp.consent(location, email: "ms@example.com").header("location"))
            let back = try await emu.call("GET", String(callback.dropFirst(emu.base.count)), apikey: nil)
            let target = try #require(back.header("location"))
            #expect(target.hasPrefix("http://127.0.0.1:41234/implicit#"))
            let fragment = FakeIdP.fragment(target)
            #expect(fragment["token_type"] == "bearer" && fragment["provider_token"]?.isEmpty == false)
            let user = try await emu.call("GET", "/auth/v1/user", bearer: fragment["access_token"])
            #expect(user.status == 200 && user.json["email"] == "ms@example.com")
        }
    }

    @Test func aMagicLinkTokenHashFromGenerateLinkSignsInOnce() async throws {
        try await SupabaseTestEmulator.with { emu in
            let user = try await emu.passwordSession("fleet@example.com")
            let link = try await emu.admin(
                "POST", "generate_link", ["type": "magiclink", "email": "fleet@example.com"])
            #expect(link.status == 200)
            let hash = try #require(link.json["hashed_token"]?.stringValue)
            let verify = try await emu.call(
                "POST", "/auth/v1/verify", ["type": "magiclink", "token_hash": .string(hash)], apikey: nil)
            #expect(verify.status == 200, "\(verify.json.jsonString)")
            #expect(verify.json["user"]?["id"] == user["user"]?["id"])
            #expect(verify.json["access_token"]?.stringValue?.isEmpty == false)
            let used = try await emu.call(
                "POST", "/auth/v1/verify", ["type": "magiclink", "token_hash": .string(hash)], apikey: nil)
            #expect(used.status == 403 && used.goTrueCode == "otp_expired")
            let unknown = try await emu.call(
                "POST", "/auth/v1/verify", ["type": "magiclink", "token_hash": "00ff"], apikey: nil)
            #expect(unknown.status == 403 && unknown.goTrueCode == "otp_expired")
        }
    }
}
