import Foundation
import SesameCore
import SesameEmulatorTesting
import SesameLocalAPI
import Testing

@testable import SesameEmulator

/// `--supabase-signing-key`: access tokens signed as hosted Supabase projects sign them, the
/// public key at `/auth/v1/.well-known/jwks.json` with the token's `kid`, and every bearer check
/// of the emulator (GoTrue, PostgREST) taking them.
@Suite("Supabase GoTrue: signing keys and the JWK set")
struct GoTrueSigningKeyTests {
    private static func jwks(_ emu: SupabaseTestEmulator) async throws -> JSONValue {
        // Open as on hosted Supabase: no apikey.
        let answer = try await emu.call("GET", "/auth/v1/.well-known/jwks.json", apikey: nil)
        #expect(answer.status == 200)
        #expect(answer.header("Cache-Control") == "public, max-age=600")
        return answer.json
    }

    /// Signs up, checks the token against the JWK set and uses it on GoTrue and PostgREST.
    private static func checkAsymmetric(_ emu: SupabaseTestEmulator, alg: String) async throws -> JSONValue {
        let jwks = try await jwks(emu)
        let key = try #require(jwks["keys"]?.arrayValue?.first)
        #expect(jwks["keys"]?.arrayValue?.count == 1)
        #expect(key["alg"]?.stringValue == alg)
        #expect(key["use"] == "sig")
        #expect(key["key_ops"] == ["verify"])
        #expect(key["d"] == nil)
        let session = try await emu.passwordSession("signed-\(alg.lowercased())@example.com")
        let token = try #require(session["access_token"]?.stringValue)
        let header = try #require(JWKSVerifier.header(token))
        #expect(header["alg"]?.stringValue == alg)
        #expect(header["typ"] == "JWT")
        #expect(header["kid"] == key["kid"])
        let claims = try #require(JWKSVerifier.claims(of: token, jwks: jwks))
        #expect(claims["sub"] == session["user"]?["id"])
        #expect(claims["role"] == "authenticated")
        // GoTrue's own bearer check and PostgREST's auth.uid() take the token.
        #expect(try await emu.call("GET", "/auth/v1/user", bearer: token).json["id"] == session["user"]?["id"])
        let uid = try #require(session["user"]?["id"]?.stringValue)
        let claim = try await emu.rest(
            "POST", "usernames", ["key": .string(alg.lowercased()), "uid": .string(uid)], bearer: token)
        #expect(claim.status == 201)
        // The legacy HS256 service_role key still reaches the admin API.
        #expect(try await emu.admin("GET", "users/\(uid)").status == 200)
        return key
    }

    @Test func theDefaultIsES256OnP256() async throws {
        #expect(SupabaseEmulatorConfiguration(port: 0).signingAlgorithm == .es256)
        try await SupabaseTestEmulator.with { emu in
            let key = try await Self.checkAsymmetric(emu, alg: "ES256")
            #expect(key["kty"] == "EC")
            #expect(key["crv"] == "P-256")
            #expect(key["x"]?.stringValue?.isEmpty == false)
            #expect(key["y"]?.stringValue?.isEmpty == false)
        }
    }

    @Test func rs256PublishesAnRSAKey() async throws {
        try await SupabaseTestEmulator.with(SupabaseEmulatorConfiguration(port: 0, signingAlgorithm: .rs256)) { emu in
            let key = try await Self.checkAsymmetric(emu, alg: "RS256")
            #expect(key["kty"] == "RSA")
            #expect(key["e"] == "AQAB")
            #expect(key["n"]?.stringValue.flatMap { Base64URL.decode($0) }?.count == 256)
        }
    }

    @Test func hs256SignsWithTheSecretAndPublishesNoKey() async throws {
        try await SupabaseTestEmulator.with(SupabaseEmulatorConfiguration(port: 0, signingAlgorithm: .hs256)) { emu in
            #expect(try await Self.jwks(emu) == ["keys": []])
            let session = try await emu.anonymousSession()
            let token = try #require(session["access_token"]?.stringValue)
            let header = try #require(JWKSVerifier.header(token))
            #expect(header == ["alg": "HS256", "typ": "JWT"])
            let claims = try SupabaseJWT(secret: SupabaseEmulatorConfiguration.developmentSecret).verify(
                token, now: 1_800_000_000)
            #expect(claims["sub"] == session["user"]?["id"])
            #expect(try await emu.call("GET", "/auth/v1/user", bearer: token).status == 200)
        }
    }

    /// GoTrue selects the verifying key by `kid`: a token naming the signing key is checked with
    /// it alone, so an HS256 token of the secret carrying that `kid` is refused (docs/emulator.md).
    @Test func anHS256TokenCarryingTheSigningKeysKidIsRefused() async throws {
        try await SupabaseTestEmulator.with { emu in
            let kid = try #require(try await Self.jwks(emu)["keys"]?.arrayValue?.first?["kid"]?.stringValue)
            let session = try await emu.anonymousSession()
            let secret = Base64URL.encode(Array(SupabaseEmulatorConfiguration.developmentSecret.utf8))
            let set = try SupabaseJWKSet(json: #"[{"kty":"oct","kid":"\#(kid)","k":"\#(secret)","key_ops":["sign"]}]"#)
            let forged = SupabaseJWT(secret: SupabaseEmulatorConfiguration.developmentSecret, keySet: set).sign(
                SupabaseTestEmulator.claims(session["access_token"]))
            #expect(JWKSVerifier.header(forged)?["alg"] == "HS256")
            let answer = try await emu.call("GET", "/auth/v1/user", bearer: forged)
            #expect(answer.status == 403)
            #expect(answer.json["error_code"] == "bad_jwt")
        }
    }

    @Test func aTokenSignedByAnotherKeyWithTheSameKidIsRefused() async throws {
        try await SupabaseTestEmulator.with { emu in
            let kid = try #require(try await Self.jwks(emu)["keys"]?.arrayValue?.first?["kid"]?.stringValue)
            let session = try await emu.anonymousSession()
            let other = try #require(SupabaseSigningKey.generate(.es256))
            let forged = SupabaseJWT(
                secret: SupabaseEmulatorConfiguration.developmentSecret,
                signingKey: SupabaseSigningKey(algorithm: .es256, keyId: kid, privateKeyPEM: other.privateKeyPEM)
            ).sign(["sub": session["user"]?["id"] ?? .null, "role": "authenticated", "exp": 4_000_000_000])
            let answer = try await emu.call("GET", "/auth/v1/user", bearer: forged)
            #expect(answer.status == 403)
            #expect(answer.json["error_code"] == "bad_jwt")
            #expect(try await emu.rest("GET", "usernames?select=uid", bearer: forged).status == 401)
        }
    }

    @Test(arguments: SupabaseSigningAlgorithm.allCases.filter { $0 != .hs256 })
    func aDataDirectoryKeepsTheKeyAcrossARestart(_ algorithm: SupabaseSigningAlgorithm) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-jwks-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configuration = EmulatorConfiguration(
            supabase: SupabaseEmulatorConfiguration(port: 0, signingAlgorithm: algorithm), dataDirectory: directory)
        let (jwks, token) = try await withEmulator(configuration) { emulator in
            let emu = try SupabaseTestEmulator(emulator)
            let token = try #require(try await emu.anonymousSession()["access_token"]?.stringValue)
            return (try await Self.jwks(emu), token)
        }
        try await withEmulator(configuration) { emulator in
            let emu = try SupabaseTestEmulator(emulator)
            #expect(try await Self.jwks(emu) == jwks)
            #expect(try await emu.call("GET", "/auth/v1/user", bearer: token).status == 200)
        }
        // Another algorithm on the same directory is a new key.
        var es = configuration
        es.supabase?.signingAlgorithm = algorithm == .es256 ? .rs256 : .es256
        try await withEmulator(es) { emulator in
            let emu = try SupabaseTestEmulator(emulator)
            let now = try await Self.jwks(emu)
            #expect(now["keys"]?.arrayValue?.first?["kid"] != jwks["keys"]?.arrayValue?.first?["kid"])
            #expect(try await emu.call("GET", "/auth/v1/user", bearer: token).status == 403)
        }
    }
}

extension SupabaseTestEmulator {
    /// The helper for an emulator started elsewhere (a data directory, another configuration).
    init(_ emulator: SesameEmulator) throws {
        self.init(
            emulator: emulator, time: EmulatorTime(), base: "http://127.0.0.1:\(try #require(emulator.supabasePort))",
            anonKey: try #require(emulator.supabaseAnonKey), serviceKey: try #require(emulator.supabaseServiceRoleKey))
    }
}
