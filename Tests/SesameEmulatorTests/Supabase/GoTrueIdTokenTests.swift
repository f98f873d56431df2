import SesameCore
import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("Supabase GoTrue: id_token grant (federated sign-in and linking)")
struct GoTrueIdTokenTests {
    /// A fake IdP token: the emulator reads its claims and does not check the signature.
    static func idToken(_ claims: JSONValue) -> String {
        "\(Base64URL.encode(Array(#"{"alg":"RS256"}"#.utf8))).\(Base64URL.encode(claims.serialized())).c2ln"
    }

    @Test func signInCreatesAUserThenFindsItAgain() async throws {
        try await SupabaseTestEmulator.with { emu in
            let token = Self.idToken(["sub": "g-1", "email": "fed@example.com", "email_verified": true])
            let first = try await emu.call(
                "POST", "/auth/v1/token?grant_type=id_token", ["provider": "google", "id_token": .string(token)])
            #expect(first.status == 200, "\(first.json.jsonString)")
            #expect(first.json["user"]?["identities"]?.arrayValue?.first?["provider"] == "google")
            #expect(first.json["user"]?["app_metadata"]?["provider"] == "google")
            #expect(
                SupabaseTestEmulator.claims(first.json["access_token"])["amr"]?.arrayValue?.first?["method"] == "oauth")
            let second = try await emu.call(
                "POST", "/auth/v1/token?grant_type=id_token", ["provider": "google", "id_token": .string(token)])
            #expect(second.json["user"]?["id"] == first.json["user"]?["id"])
            let unknown = try await emu.call(
                "POST", "/auth/v1/token?grant_type=id_token", ["provider": "github", "id_token": .string(token)])
            // token_oidc.go: an unknown provider is a plain validation error, not the OAuth shape.
            #expect(unknown.status == 400)
            #expect(unknown.goTrueCode == "validation_failed")
            #expect(unknown.json["msg"] == #"Custom OIDC provider "github" not allowed"#)
            // The deprecated issuer + client_id form, for an allowed issuer.
            let byIssuer = try await emu.call(
                "POST", "/auth/v1/token?grant_type=id_token",
                ["issuer": "https://accounts.google.com", "client_id": "app", "id_token": .string(token)])
            #expect(byIssuer.json["user"]?["id"] == first.json["user"]?["id"])
        }
    }

    /// The input errors GoTrue answers in the OAuth shape `{error, error_description}`, in its order.
    @Test func inputErrorsUseTheOAuthShape() async throws {
        try await SupabaseTestEmulator.with { emu in
            let token = Self.idToken(["sub": "g-5"])
            let cases: [(JSONValue, String)] = [
                (["provider": "google"], "id_token required"),
                (["provider": "github", "id_token": ""], "id_token required"),
                (["id_token": .string(token)], "provider or client_id and issuer required"),
                (
                    ["issuer": "https://accounts.google.com", "id_token": .string(token)],
                    "provider or client_id and issuer required"
                ),
                (
                    ["provider": "google", "id_token": .string(token), "link_identity": true],
                    "Linking requires a valid user access token in Authorization"
                ),
                (["provider": "google", "id_token": "not-a-jwt"], "Bad ID token"),
                (
                    ["provider": "google", "id_token": .string(Self.idToken(["email": "x@example.com"]))],
                    "Missing sub claim in id_token"
                ),
            ]
            for (body, description) in cases {
                let answer = try await emu.call("POST", "/auth/v1/token?grant_type=id_token", body, versioned: true)
                #expect(answer.status == 400)
                #expect(answer.json == ["error": "invalid request", "error_description": .string(description)])
            }
            // Linking checks the bearer before the provider: a bad one is 403 bad_jwt.
            let badBearer = try await emu.call(
                "POST", "/auth/v1/token?grant_type=id_token",
                ["provider": "github", "id_token": .string(token), "link_identity": true], bearer: "x.y.z")
            #expect(badBearer.status == 403)
            #expect(badBearer.goTrueCode == "bad_jwt")
        }
    }

    @Test func linkingToAnAnonymousUserKeepsTheIdAndMakesItPermanent() async throws {
        try await SupabaseTestEmulator.with { emu in
            let guest = try await emu.anonymousSession()
            let token = Self.idToken(["sub": "a-9", "email": "apple@example.com", "email_verified": true])
            let linked = try await emu.call(
                "POST", "/auth/v1/token?grant_type=id_token",
                ["provider": "apple", "id_token": .string(token), "link_identity": true],
                bearer: guest["access_token"]?.text)
            #expect(linked.status == 200, "\(linked.json.jsonString)")
            #expect(linked.json["user"]?["id"] == guest["user"]?["id"])
            #expect(linked.json["user"]?["is_anonymous"] == false)
            #expect(SupabaseTestEmulator.claims(linked.json["access_token"])["is_anonymous"] == false)
            let other = try await emu.anonymousSession()
            let conflict = try await emu.call(
                "POST", "/auth/v1/token?grant_type=id_token",
                ["provider": "apple", "id_token": .string(token), "link_identity": true],
                bearer: other["access_token"]?.text)
            #expect(conflict.status == 422)
            #expect(conflict.goTrueCode == "identity_already_exists")
        }
    }

    @Test func nonceMustMatchItsHash() async throws {
        try await SupabaseTestEmulator.with { emu in
            let raw = "n-0nce"
            let good = Self.idToken(["sub": "g-2", "nonce": .string(SupabaseHash.sha256Hex(raw))])
            let ok = try await emu.call(
                "POST", "/auth/v1/token?grant_type=id_token",
                ["provider": "google", "id_token": .string(good), "nonce": .string(raw)])
            #expect(ok.status == 200)
            let missing = try await emu.call(
                "POST", "/auth/v1/token?grant_type=id_token", ["provider": "google", "id_token": .string(good)])
            #expect(missing.status == 400)
        }
    }

    /// errors.go's HandleResponseError echoes `X-Supabase-Api-Version` to a versioned request
    /// before it picks the error's shape, the OAuth one included; an unversioned request gets none.
    @Test func oauthShapedErrorsEchoTheAPIVersion() async throws {
        try await SupabaseTestEmulator.with { emu in
            let body: JSONValue = ["provider": "google"]
            let versioned = try await emu.call("POST", "/auth/v1/token?grant_type=id_token", body, versioned: true)
            #expect(versioned.status == 400 && versioned.json["error"] == "invalid request")
            #expect(versioned.header("x-supabase-api-version") == "2024-01-01")
            let plain = try await emu.call("POST", "/auth/v1/token?grant_type=id_token", body)
            #expect(plain.status == 400 && plain.json["error"] == "invalid request")
            #expect(plain.header("x-supabase-api-version") == nil)
        }
    }
}
