import Crypto
import Foundation
import SesameCore
import SesameEmulatorTesting
import SesameLocalAPI
import Testing
import _CryptoExtras

@testable import SesameEmulator

/// `--supabase-jwt-keys`, as GoTrue's `GOTRUE_JWT_KEYS` (internal/conf/jwk.go): an HS256 key
/// and an RS256 key with their own `kid`s beside the ES256 key that signs. The relying party's
/// checks are ``JWKSVerifier``'s, independent of the emulator's signing code.
@Suite("Supabase GoTrue: a JWK set signs with its sign key, verifies with all, publishes the public ones")
struct GoTrueJWKSetTests {
    /// A 2048-bit RSA test key (made for this test; it signs nothing else).
    static let rsa: JSONValue = [
        "kty": "RSA", "kid": "rsa-verify", "alg": "RS256", "key_ops": ["verify"],
        "n": .string(
            "kzvzfUA5_KiMKYR9aXBt74mGB4KCmQzcGzg4Ilms7DSjXPuvJvTnpPUdS-A4LZvoEUidO_-h0m3KfM7FlOP4VrGTIfQu4AzQ"
                + "qugndAX1N8dKaEciMCI0ojaBoJ01J0OHUon2GPTv6qlR_duqyO0LEbOdLl6GIFmMZPJs9VPvcnrTKuB0IqTcaI7z2s9qq08E"
                + "WIWH6CII_vGL7tcMUFMbBiuNR9fSPdDmKQQz_UbLBkfSdngj6Q-2fhSTkcvsMYOMOJkL629fn5pCb4MeCZxkjr5oBTb-W_lx"
                + "12rXY1Kf3Nf90ndFc5D1r8MwTm4ofG5Qa4qeiu76W82y--h5W6MN4Q"),
        "e": .string(
            "AQAB"),
        "d": .string(
            "EH7agFFmTcLadTpVTK9eecRYIlZCaIBS1q_dRify4kHhfaTrEjvFCiu2HQ6hbKa3gNw4VYUF7cwEMCiAZXaHF7tsZxTy_YIi"
                + "DMvWw755I0cuNHGnyGnEqNnfew2x61S7AAnZ6yDiElHnEECAqWM5ZsHPXecUMuKlgpfQkknVnWcu56Z9BWeX9BVrCyJm6dJU"
                + "S7EqMIfTfowemX0pIwdWj9_EC91g6r2vR7ejQzH978svdTEX8m5k4K77hjknkvwufFC93YyzHmkMEK-yVGzrdRRvb4SnJt0x"
                + "me0oudpD8F-YjS68vcmhM1JjDhpw6idl6R350LSDgVrn9EwbCNoa4Q"),
        "p": .string(
            "xefvmw5B8btIR5OxaR7subDfka672wLKV3ElahXej5QQ5XfBYHmzQl3rNUcGOTzqthM2zXcRFijci8xYdbOWKnVPRYpDETGH"
                + "XgMdIuDl-w7z0QJsXOAFH8iw6arJkWpGoIxzAUVnUgJrsAeoC0AmzLzaVwOB3BqIlH6KI8aAwJk"),
        "q": .string(
            "vnQstMDlnXGOUTCYkvbxIatzM6aCnJC6gbbdPv6XkF8tm5IMD-T5FSUAT5aaV_PBg8khZWJhY7dsJaTT_r3PNPF-lwEvoVGi"
                + "m9e9ebvn8VFasEFR2cqZUqDs-9u_9Z5SpNe6HCvZPWsTrK2TMUeidXTrn3QZaouWw2n2uEnNXIk"),
    ]

    static func ec(_ key: P256.Signing.PrivateKey, kid: String, operations: [JSONValue]) -> JSONValue {
        let point = Array(key.publicKey.x963Representation)
        return [
            "kty": "EC", "crv": "P-256", "kid": .string(kid), "alg": "ES256", "key_ops": .array(operations),
            "d": .string(Base64URL.encode(Array(key.rawRepresentation))),
            "x": .string(Base64URL.encode(point[1..<33])), "y": .string(Base64URL.encode(point[33..<65])),
        ]
    }

    static let octSecret = Array("an-hmac-key-of-the-set-32-bytes!".utf8)
    static let oct: JSONValue = [
        "kty": "oct", "kid": "hs-verify", "alg": "HS256", "key_ops": ["verify"],
        "k": .string(Base64URL.encode(octSecret)),
    ]

    /// `claims` signed as another GoTrue holding the same set would sign them with `key`.
    static func token(
        _ claims: JSONValue, kid: String, alg: String, sign: ([UInt8]) throws -> [UInt8]
    ) rethrows -> String {
        let header: JSONValue = ["alg": .string(alg), "kid": .string(kid), "typ": "JWT"]
        let input = Base64URL.encode(header.serialized()) + "." + Base64URL.encode(claims.serialized())
        return input + "." + Base64URL.encode(try sign(Array(input.utf8)))
    }

    @Test(
        "tokens are ES256 with the sign key's kid; RS256 and HS256 tokens of the set's other keys are accepted; the JWKS lists EC and RSA, never oct"
    )
    func signsVerifiesAndPublishes() async throws {
        let signer = P256.Signing.PrivateKey()
        let set = JSONValue.array([
            Self.ec(signer, kid: "ec-sign", operations: ["sign", "verify"]), Self.rsa, Self.oct,
        ])
        var configuration = SupabaseEmulatorConfiguration(port: 0)
        configuration.jwtKeys = try SupabaseJWKSet(json: set.jsonString)
        try await SupabaseTestEmulator.with(configuration) { emu in
            let session = try await emu.passwordSession("jwks@example.com")
            let access = try #require(session["access_token"]?.stringValue)
            #expect(JWKSVerifier.header(access)?["kid"] == "ec-sign")
            #expect(JWKSVerifier.header(access)?["alg"] == "ES256")
            let jwks = try await emu.call("GET", "/auth/v1/.well-known/jwks.json").json
            #expect(
                Set(jwks["keys"]?.arrayValue?.compactMap { $0["kid"]?.stringValue } ?? []) == ["ec-sign", "rsa-verify"])
            #expect(jwks.jsonString.contains("\"d\"") == false)
            #expect(JWKSVerifier.claims(of: access, jwks: jwks)?["email"] == "jwks@example.com")

            let claims = try #require(JWKSVerifier.claims(of: access, jwks: jwks))
            let byRSA = try Self.token(claims, kid: "rsa-verify", alg: "RS256") { input in
                let key = try _RSA.Signing.PrivateKey(
                    n: Base64URL.decode(Self.rsa["n"]!.stringValue!)!,
                    e: Base64URL.decode(Self.rsa["e"]!.stringValue!)!,
                    d: Base64URL.decode(Self.rsa["d"]!.stringValue!)!,
                    p: Base64URL.decode(Self.rsa["p"]!.stringValue!)!,
                    q: Base64URL.decode(Self.rsa["q"]!.stringValue!)!)
                return Array(try key.signature(for: input, padding: .insecurePKCS1v1_5).rawRepresentation)
            }
            #expect(try await emu.call("GET", "/auth/v1/user", bearer: byRSA).status == 200)
            let byOct = Self.token(claims, kid: "hs-verify", alg: "HS256") { input in
                Array(HMAC<SHA256>.authenticationCode(for: input, using: SymmetricKey(data: Self.octSecret)))
            }
            #expect(try await emu.call("GET", "/auth/v1/user", bearer: byOct).status == 200)
            // A kid of the set with another key's algorithm, and an unknown key, are refused.
            let wrongAlg = Self.token(claims, kid: "rsa-verify", alg: "HS256") { input in
                Array(HMAC<SHA256>.authenticationCode(for: input, using: SymmetricKey(data: Self.octSecret)))
            }
            #expect(try await emu.call("GET", "/auth/v1/user", bearer: wrongAlg).status == 403)
            let stranger = try Self.token(claims, kid: "ec-sign", alg: "ES256") { input in
                Array(try P256.Signing.PrivateKey().signature(for: input).rawRepresentation)
            }
            #expect(try await emu.call("GET", "/auth/v1/user", bearer: stranger).status == 403)
        }
    }

    @Test("an oct key may sign: HS256 with its kid, and the JWKS is empty")
    func aSymmetricSigningKey() async throws {
        var oct = Self.oct
        oct = ["kty": "oct", "kid": "hs-sign", "alg": "HS256", "key_ops": ["sign", "verify"], "k": oct["k"]!]
        var configuration = SupabaseEmulatorConfiguration(port: 0)
        configuration.jwtKeys = try SupabaseJWKSet(json: JSONValue.array([oct]).jsonString)
        try await SupabaseTestEmulator.with(configuration) { emu in
            let session = try await emu.passwordSession("hs@example.com")
            let access = try #require(session["access_token"]?.stringValue)
            #expect(JWKSVerifier.header(access) == ["alg": "HS256", "kid": "hs-sign", "typ": "JWT"])
            #expect(try await emu.call("GET", "/auth/v1/user", bearer: access).status == 200)
            #expect(try await emu.call("GET", "/auth/v1/.well-known/jwks.json").json == ["keys": []])
        }
    }

    @Test("jwk.go's refusals: no signing key, more than one, a key without kid or of another type")
    func refusals() throws {
        let signer = P256.Signing.PrivateKey()
        func message(_ set: JSONValue) -> String? {
            do {
                _ = try SupabaseJWKSet(json: set.jsonString)
                return nil
            } catch { return "\(error)" }
        }
        #expect(message([Self.rsa])?.contains("no signing key detected") == true)
        let two: JSONValue = [
            Self.ec(signer, kid: "a", operations: ["sign"]),
            Self.ec(P256.Signing.PrivateKey(), kid: "b", operations: ["sign"]),
        ]
        #expect(message(two)?.contains("multiple signing keys detected, only 1 signing key is supported") == true)
        #expect(
            message([["kty": "OKP", "kid": "x", "key_ops": ["sign"]]])?.contains("kty must be EC, RSA or oct") == true)
        #expect(message([["kty": "oct", "k": "AAAA", "key_ops": ["sign"]]])?.contains("has no kid") == true)
        #expect(message(["not": "an array"])?.contains("not a JSON array") == true)
    }
}
