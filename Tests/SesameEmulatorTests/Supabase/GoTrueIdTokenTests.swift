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
            #expect(unknown.status == 400)
            #expect(unknown.json["error"] == "invalid request")
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
}
