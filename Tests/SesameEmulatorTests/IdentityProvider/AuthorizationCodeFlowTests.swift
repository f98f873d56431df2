import Foundation
import SesameCore
import SesameEmulatorTesting
import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("Fake identity provider: authorization-code flow with PKCE")
struct AuthorizationCodeFlowTests {
    static let verifier = "a-verifier-of-at-least-forty-three-characters-0123456789"
    static let redirect = "http://127.0.0.1:45678/callback"

    static func authorizeURL(_ idp: FakeIdP, state: String = "st-1", challenge: String? = nil) -> String {
        var query = [
            ("response_type", "code"), ("client_id", "desktop-app"), ("redirect_uri", redirect), ("state", state),
            ("scope", "openid email"),
        ]
        if let challenge { query += [("code_challenge", challenge), ("code_challenge_method", "S256")] }
        return PercentEncoding.url(idp.base + "/authorize", query: query)
    }

    func exchange(_ idp: FakeIdP, code: String, verifier: String?) async throws -> HTTPAnswer {
        var fields = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", Self.redirect)]
        if let verifier { fields.append(("code_verifier", verifier)) }
        return try await idp.form("token", fields)
    }

    @Test func approvalRedirectsWithCodeAndStateAndPKCEIsChecked() async throws {
        try await TestEmulator.with { emu in
            let idp = FakeIdP(emu, "google.com")
            let url = Self.authorizeURL(idp, challenge: FakeIdP.challenge(Self.verifier))
            let back = try await idp.consent(url, email: "browser@example.com", name: "Bea")
            #expect(back.status == 302)
            let location = try #require(back.header("location"))
            #expect(location.hasPrefix(Self.redirect + "?"))
            let query = FakeIdP.query(location)
            #expect(query["state"] == "st-1")
            let code = try #require(query["code"])

            let wrong = try await exchange(
                idp, code: code, verifier: "another-verifier-that-is-long-enough-to-be-valid-1234")
            #expect(wrong.status == 400 && wrong.json["error"] == "invalid_grant")
            // The code was spent by the failed attempt: a new authorization is needed.
            #expect(try await exchange(idp, code: code, verifier: Self.verifier).json["error"] == "invalid_grant")

            let second = try await idp.consent(url, email: "browser@example.com")
            let code2 = try #require(FakeIdP.query(second.header("location"))["code"])
            #expect(try await exchange(idp, code: code2, verifier: nil).json["error"] == "invalid_grant")
            let third = try await idp.consent(url, email: "browser@example.com")
            let code3 = try #require(FakeIdP.query(third.header("location"))["code"])
            let tokens = try await exchange(idp, code: code3, verifier: Self.verifier)
            #expect(tokens.status == 200, "\(tokens.json.jsonString)")
            let claims = TokenFactory.decodeJWT(tokens.json["id_token"]?.stringValue ?? "")?.payload ?? [:]
            #expect(claims["aud"] == "desktop-app" && claims["email"] == "browser@example.com")
            #expect(try await exchange(idp, code: code3, verifier: Self.verifier).json["error"] == "invalid_grant")
        }
    }

    @Test func aDenialRedirectsWithAccessDeniedAndTheState() async throws {
        try await TestEmulator.with { emu in
            let idp = FakeIdP(emu, "github.com")
            let back = try await idp.consent(Self.authorizeURL(idp, state: "s 2"), email: "", deny: true)
            #expect(back.status == 302)
            let query = FakeIdP.query(back.header("location"))
            #expect(query["error"] == "access_denied" && query["state"] == "s 2" && query["code"] == nil)
            #expect(query["error_description"]?.isEmpty == false)
        }
    }

    @Test func codesExpireAfterTenMinutes() async throws {
        try await TestEmulator.with { emu in
            let idp = FakeIdP(emu, "google.com")
            let back = try await idp.consent(Self.authorizeURL(idp), email: "slow@example.com")
            let code = try #require(FakeIdP.query(back.header("location"))["code"])
            emu.time.advance(seconds: 601)
            let late = try await exchange(idp, code: code, verifier: nil)
            #expect(late.status == 400 && late.json["error"] == "invalid_grant")
        }
    }

    @Test func aRequestThatCannotRedirectIsAnErrorPage() async throws {
        try await TestEmulator.with { emu in
            let idp = FakeIdP(emu, "google.com")
            let page = try await idp.get(idp.base + "/authorize?response_type=code&redirect_uri=notaurl")
            #expect(page.status == 400)
            #expect(String(decoding: page.bytes, as: UTF8.self).contains("redirect_uri"))
            let grant = try await idp.form("token", [("grant_type", "password")])
            #expect(grant.status == 400 && grant.json["error"] == "unsupported_grant_type")
        }
    }
}
