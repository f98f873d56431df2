import SesameEmulatorTesting
import SesameLocalAPI
import Testing

@testable import SesameEmulator

/// The opaque API keys of new Supabase projects, through the gateway as `supabase start`'s local
/// stack configures it: the publishable key stands for the anon JWT, the secret key for the
/// service_role JWT, whether sent as `apikey` alone or also as `Authorization: Bearer` (as the
/// official clients send the key they were made with); a user's access token passes through.
@Suite("Supabase gateway: publishable and secret keys")
struct SupabaseGatewayTests {
    static let publishable = SupabaseEmulatorConfiguration.developmentPublishableKey
    static let secret = SupabaseEmulatorConfiguration.developmentSecretKey

    @Test("the publishable key signs up anonymously and reads as anon, with or without Bearer")
    func publishableKeyIsAnon() async throws {
        try await SupabaseTestEmulator.with { emu in
            #expect(emu.emulator.supabasePublishableKey == Self.publishable)
            #expect(emu.emulator.supabaseSecretKey == Self.secret)
            let signUp = try await emu.call(
                "POST", "/auth/v1/signup", [:], bearer: Self.publishable, apikey: Self.publishable)
            #expect(signUp.status == 200)
            let session = signUp.json
            let uid = try #require(session["user"]?["id"]?.stringValue)
            let access = try #require(session["access_token"]?.text)
            // The user's own token passes through the gateway untouched.
            let claim = try await emu.call(
                "POST", "/rest/v1/usernames", ["key": "pub", "uid": .string(uid)], bearer: access,
                apikey: Self.publishable)
            #expect(claim.status == 201)
            let owner = try await emu.call(
                "POST", "/rest/v1/rpc/username_owner", ["name_key": "pub"], bearer: Self.publishable,
                apikey: Self.publishable)
            #expect(owner.json == .string(uid))
            // As anon (no Bearer, or Bearer of the key): its rows are not listed.
            for bearer in [nil, Self.publishable] {
                let rows = try await emu.call("GET", "/rest/v1/usernames", bearer: bearer, apikey: Self.publishable)
                #expect(rows.status == 200)
                #expect(rows.json == [])
            }
            // The admin API refuses the anon role.
            let admin = try await emu.call(
                "GET", "/auth/v1/admin/users", bearer: Self.publishable, apikey: Self.publishable)
            #expect(admin.status == 403)
        }
    }

    @Test("the secret key is service_role: the admin API works and row-level security is bypassed")
    func secretKeyIsServiceRole() async throws {
        try await SupabaseTestEmulator.with { emu in
            let session = try await emu.anonymousSession()
            let uid = try #require(session["user"]?["id"]?.stringValue)
            _ = try await emu.rest(
                "POST", "usernames", ["key": "sec", "uid": .string(uid)], bearer: session["access_token"]?.text)
            for bearer in [nil, Self.secret] {
                let users = try await emu.call("GET", "/auth/v1/admin/users", bearer: bearer, apikey: Self.secret)
                #expect(users.status == 200)
                #expect(users.json["users"]?.arrayValue?.count == 1)
                let rows = try await emu.call(
                    "GET", "/rest/v1/usernames?select=uid", bearer: bearer, apikey: Self.secret)
                #expect(rows.json == [["uid": .string(uid)]])
            }
        }
    }

    @Test("an sb_ key that is not this project's is refused as the gateway refuses it")
    func unknownOpaqueKeys() async throws {
        try await SupabaseTestEmulator.with { emu in
            let forged = try await emu.call("POST", "/auth/v1/signup", [:], apikey: "sb_publishable_not-this-project")
            #expect(forged.status == 401)
            #expect(forged.json["message"] == "Invalid API key")
            let secretLike = try await emu.call("GET", "/auth/v1/admin/users", apikey: "sb_secret_guess")
            #expect(secretLike.status == 401)
        }
    }

    @Test("keys of the emulator's own choosing are used, and the defaults are then refused")
    func configuredKeys() async throws {
        let configuration = SupabaseEmulatorConfiguration(
            port: 0, publishableKey: "sb_publishable_project-one-key", secretKey: "sb_secret_project-one-key")
        try await SupabaseTestEmulator.with(configuration) { emu in
            let own = try await emu.call("POST", "/auth/v1/signup", [:], apikey: "sb_publishable_project-one-key")
            #expect(own.status == 200)
            let defaults = try await emu.call("POST", "/auth/v1/signup", [:], apikey: Self.publishable)
            #expect(defaults.status == 401)
            let admin = try await emu.call("GET", "/auth/v1/admin/users", apikey: "sb_secret_project-one-key")
            #expect(admin.status == 200)
        }
    }
}
