import SesameCore
import SesameEmulatorTesting
import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("Firebase: signInWithCustomToken (unsigned emulator tokens)")
struct CustomTokenTests {
    static let audience = "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"

    /// A custom token as firebase-admin mints it against an emulator: an `alg: none` JWT with an
    /// empty signature.
    static func token(_ payload: JSONValue) -> String {
        Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "." + Base64URL.encode(payload.serialized())
            + "."
    }

    static func payload(uid: String, exp: Int, claims: JSONValue? = nil) -> JSONValue {
        var payload: [String: JSONValue] = [
            "aud": .string(audience), "iss": "firebase-auth-emulator@example.com",
            "sub": "firebase-auth-emulator@example.com", "uid": .string(uid), "iat": .int(exp - 3600), "exp": .int(exp),
        ]
        payload["claims"] = claims
        return .object(payload)
    }

    @Test func anUnsignedTokenSignsInAndCarriesItsClaims() async throws {
        try await TestEmulator.with { emu in
            let now = emu.emulator.configuration.clock.milliseconds() / 1000
            let token = Self.token(Self.payload(uid: "fleet-7", exp: now + 3600, claims: ["role": "kiosk"]))
            let answer = try await emu.auth("accounts:signInWithCustomToken", ["token": .string(token)])
            #expect(answer.status == 200, "\(answer.json.jsonString)")
            #expect(answer.json["isNewUser"] == true)
            let claims = TestEmulator.claims(answer.json["idToken"])
            #expect(claims["user_id"] == "fleet-7" && claims["role"] == "kiosk")
            #expect(claims["firebase"]?["sign_in_provider"] == "custom")
            let again = try await emu.auth("accounts:signInWithCustomToken", ["token": .string(token)])
            #expect(again.status == 200 && again.json["isNewUser"] == false)
            let strict = try await emu.auth("accounts:signInWithCustomToken", ["token": #"{"uid":"fleet-8"}"#])
            #expect(strict.status == 200)
        }
    }

    @Test func expiredAndMalformedTokensAreInvalidCustomToken() async throws {
        try await TestEmulator.with { emu in
            let now = emu.emulator.configuration.clock.milliseconds() / 1000
            let expired = try await emu.auth(
                "accounts:signInWithCustomToken", ["token": .string(Self.token(Self.payload(uid: "u", exp: now - 1)))])
            #expect(expired.status == 400)
            #expect(expired.errorMessage == "INVALID_CUSTOM_TOKEN : Token expired.")
            for bad in ["not-a-token", "a.b.c", "{nope"] {
                let answer = try await emu.auth("accounts:signInWithCustomToken", ["token": .string(bad)])
                #expect(answer.status == 400, "\(bad)")
                #expect(answer.errorMessage?.hasPrefix("INVALID_CUSTOM_TOKEN") == true, "\(bad)")
            }
            let wrongAudience = try await emu.auth(
                "accounts:signInWithCustomToken",
                ["token": .string(Self.token(["aud": "https://example.com", "uid": "u", "exp": .int(now + 60)]))])
            #expect(wrongAudience.errorMessage?.hasPrefix("INVALID_CUSTOM_TOKEN") == true)
            let noUid = try await emu.auth(
                "accounts:signInWithCustomToken",
                ["token": .string(Self.token(["aud": .string(Self.audience), "exp": .int(now + 60)]))])
            #expect(noUid.errorMessage == "MISSING_IDENTIFIER")
        }
    }
}
