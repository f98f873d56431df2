import Foundation
import SesameCore
import SesameEmulatorTesting
import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("Fake identity provider: RFC 8628 device flow")
struct DeviceFlowTests {
    @Test func googleApprovalEndsInASignedIdTokenAndTheCodeIsSingleUse() async throws {
        try await TestEmulator.with { emu in
            let idp = FakeIdP(emu, "google.com")
            let start = try await idp.startDevice()
            let userCode = try #require(start["user_code"]?.stringValue)
            #expect(userCode.wholeMatch(of: #/[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}/#) != nil)
            #expect(start["verification_url"]?.stringValue == idp.base + "/device")
            #expect(start["verification_uri"] == nil && start["verification_uri_complete"] == nil)
            #expect(start["expires_in"] == 900 && start["interval"] == 5)

            let pending = try await idp.poll(start)
            #expect(pending.status == 400 && pending.json["error"] == "authorization_pending")
            #expect(pending.header("content-type")?.hasPrefix("application/json") == true)

            let approved = try await idp.approve(start, email: "Ada@Example.com", name: "Ada")
            #expect(approved.status == 200 && approved.json == [:])
            emu.time.advance(seconds: 5)
            let done = try await idp.poll(start)
            #expect(done.status == 200, "\(done.json.jsonString)")
            #expect(done.json["token_type"] == "Bearer" && done.json["expires_in"] == 3600)
            #expect(done.json["access_token"]?.stringValue?.isEmpty == false)
            let idToken = try #require(done.json["id_token"]?.stringValue)
            let jwks = try await idp.get(idp.base + "/jwks").json
            let claims = try #require(IdentityProviderSigner.verify(idToken, with: jwks))
            #expect(claims["iss"]?.stringValue == idp.base)
            #expect(claims["aud"] == "tv-client")
            #expect(claims["email"] == "ada@example.com" && claims["email_verified"] == true && claims["name"] == "Ada")
            #expect(
                claims["sub"]?.stringValue
                    == FakeIdentity.derivedSub(providerId: "google.com", email: "ada@example.com"))
            #expect(claims["exp"]?.intValue == (claims["iat"]?.intValue ?? 0) + 3600)

            emu.time.advance(seconds: 5)
            let again = try await idp.poll(start)
            #expect(again.status == 400 && again.json["error"] == "invalid_grant")
            let unknown = try await idp.poll(["device_code": "nope"])
            #expect(unknown.status == 400 && unknown.json["error"] == "invalid_grant")
        }
    }

    @Test func githubAnswersAnAccessTokenOnlyAndTheCompleteURI() async throws {
        try await TestEmulator.with { emu in
            let idp = FakeIdP(emu, "github.com")
            let start = try await idp.startDevice(scope: "read:user user:email")
            let code = try #require(start["user_code"]?.stringValue)
            #expect(start["verification_uri"]?.stringValue == idp.base + "/device")
            #expect(start["verification_uri_complete"]?.stringValue == idp.base + "/device?user_code=" + code)
            #expect(start["verification_url"] == nil)
            #expect(try await idp.approve(start, email: "octo@example.com").status == 200)
            let done = try await idp.poll(start)
            #expect(done.status == 200)
            #expect(done.json["access_token"]?.stringValue?.hasPrefix("gho_") == true)
            #expect(done.json["id_token"] == nil)
            #expect(done.json["scope"] == "read:user user:email")
        }
    }

    @Test func pollingTooSoonSlowsDownByFiveSecondsThenApprovalWorks() async throws {
        try await TestEmulator.with { emu in
            let idp = FakeIdP(emu, "microsoft.com")
            let start = try await idp.startDevice()
            #expect(try await idp.poll(start).json["error"] == "authorization_pending")
            let fast = try await idp.poll(start)
            #expect(fast.status == 400 && fast.json["error"] == "slow_down" && fast.json["interval"] == 10)
            emu.time.advance(seconds: 5)
            let stillFast = try await idp.poll(start)
            #expect(stillFast.json["error"] == "slow_down" && stillFast.json["interval"] == 15)
            emu.time.advance(seconds: 15)
            #expect(try await idp.poll(start).json["error"] == "authorization_pending")
            #expect(try await idp.approve(start, email: "m@example.com").status == 200)
            emu.time.advance(seconds: 15)
            let done = try await idp.poll(start)
            #expect(done.status == 200 && done.json["id_token"] != nil)
            let faults = try await emu.request("GET", emu.authBase + "/sesame/v1/faults")
            #expect(faults.json["calls"]?["idp:token"] == 5 && faults.json["calls"]?["idp:device/code"] == 1)
        }
    }

    @Test func aDenialIsAccessDeniedAndCannotBeApprovedAfterwards() async throws {
        try await TestEmulator.with { emu in
            let idp = FakeIdP(emu, "google.com")
            let start = try await idp.startDevice()
            let denied = try await idp.approve(start, email: "", deny: true)
            #expect(denied.status == 200)
            let poll = try await idp.poll(start)
            #expect(poll.status == 400 && poll.json["error"] == "access_denied")
            let late = try await idp.approve(start, email: "x@example.com")
            #expect(late.status == 400 && late.json["error"] == "invalid_request")
            let unknown = try await idp.approve(["user_code": "BCDF-GHJK"], email: "x@example.com")
            #expect(unknown.status == 404)
        }
    }

    @Test func theConfigKnobShortensLifetimesAndExpiredCodesSayExpiredToken() async throws {
        try await TestEmulator.with { emu in
            let idp = FakeIdP(emu, "google.com")
            let config = try await idp.json("config", ["deviceCodeLifetimeSeconds": 3, "intervalSeconds": 1])
            #expect(config.status == 200)
            #expect(config.json == ["deviceCodeLifetimeSeconds": 3, "intervalSeconds": 1])
            let bad = try await idp.json("config", ["intervalSeconds": -1])
            #expect(bad.status == 400)
            let start = try await idp.startDevice()
            #expect(start["expires_in"] == 3 && start["interval"] == 1)
            emu.time.advance(seconds: 4)
            let approve = try await idp.approve(start, email: "late@example.com")
            #expect(approve.status == 400 && approve.json["error"] == "expired_token")
            let poll = try await idp.poll(start)
            #expect(poll.status == 400 && poll.json["error"] == "expired_token")
        }
    }

    @Test func thePagesRenderAndTheirFormApproves() async throws {
        try await TestEmulator.with { emu in
            let idp = FakeIdP(emu, "google.com")
            let start = try await idp.startDevice()
            let code = try #require(start["user_code"]?.stringValue)
            let page = try await idp.get(idp.base + "/device?user_code=" + code)
            let html = String(decoding: page.bytes, as: UTF8.self)
            #expect(page.status == 200 && page.header("content-type")?.hasPrefix("text/html") == true)
            for id in ["user_code", "email", "name", "approve", "deny"] { #expect(html.contains("id=\"\(id)\"")) }
            #expect(html.contains("value=\"\(code)\""))

            let noEmail = try await idp.form("device", [("user_code", code), ("email", ""), ("action", "approve")])
            #expect(noEmail.status == 400)
            let lowerCase = code.lowercased().replacingOccurrences(of: "-", with: "")
            let done = try await idp.form(
                "device", [("user_code", lowerCase), ("email", "page@example.com"), ("action", "approve")])
            #expect(done.status == 200)
            #expect(String(decoding: done.bytes, as: UTF8.self).contains("You can return to your device"))
            #expect(try await idp.poll(start).status == 200)

            let unknown = try await idp.form("device", [("user_code", "ZZZZ-ZZZZ"), ("email", "a@b.c")])
            #expect(unknown.status == 400)
            #expect(String(decoding: unknown.bytes, as: UTF8.self).contains("No device is waiting for this code"))
        }
    }

    @Test func aCodeIssuedOnTheAuthPortIsApprovedAndRedeemedOnTheSupabasePort() async throws {
        try await SupabaseTestEmulator.with { supabase in
            let emu = TestEmulator(emulator: supabase.emulator, time: supabase.time)
            let onAuth = FakeIdP(emu, "google.com")
            let onSupabase = FakeIdP(emu, "google.com", origin: supabase.base)
            let start = try await onAuth.startDevice()
            let page = try await onSupabase.form(
                "device", [("user_code", start["user_code"]?.stringValue ?? ""), ("email", "both@example.com")])
            #expect(page.status == 200)
            let done = try await onSupabase.poll(start)
            #expect(done.status == 200)
            let idToken = try #require(done.json["id_token"]?.stringValue)
            #expect(TokenFactory.decodeJWT(idToken)?.payload["iss"]?.stringValue == onSupabase.base)
            // The Supabase side takes the provider's ID token in its id_token grant.
            let session = try await supabase.call(
                "POST", "/auth/v1/token?grant_type=id_token", ["provider": "google", "id_token": .string(idToken)])
            #expect(session.status == 200, "\(session.json.jsonString)")
            #expect(session.json["user"]?["email"] == "both@example.com")
        }
    }
}
