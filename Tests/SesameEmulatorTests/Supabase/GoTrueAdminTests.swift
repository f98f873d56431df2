import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("Supabase GoTrue: /admin behind service_role, generate_link")
struct GoTrueAdminTests {
    @Test func adminNeedsTheServiceRole() async throws {
        try await SupabaseTestEmulator.with { emu in
            let anon = try await emu.call("GET", "/auth/v1/admin/users", bearer: emu.anonKey)
            #expect(anon.status == 403)
            #expect(anon.goTrueCode == "not_admin")
            let user = try await emu.anonymousSession()
            #expect(
                try await emu.call("GET", "/auth/v1/admin/users", bearer: user["access_token"]?.text).goTrueCode
                    == "not_admin")
            #expect(try await emu.call("GET", "/auth/v1/admin/users").goTrueCode == "no_authorization")
        }
    }

    @Test func createListGetUpdateDelete() async throws {
        try await SupabaseTestEmulator.with { emu in
            let created = try await emu.admin(
                "POST", "users",
                [
                    "email": "admin-made@example.com", "password": "secret-pw", "email_confirm": true,
                    "user_metadata": ["name": "Ada"],
                ])
            #expect(created.status == 200, "\(created.json.jsonString)")
            let id = try #require(created.json["id"]?.stringValue)
            #expect(created.json["email_confirmed_at"] != nil)
            #expect(created.json["user_metadata"]?["name"] == "Ada")
            #expect(
                try await emu.admin("POST", "users", ["email": "admin-made@example.com"]).goTrueCode == "email_exists")
            _ = try await emu.anonymousSession()
            let list = try await emu.admin("GET", "users?page=1&per_page=1")
            #expect(list.json["users"]?.arrayValue?.count == 1)
            #expect(list.header("x-total-count") == "2")
            #expect(try await emu.admin("GET", "users/\(id)").json["email"] == "admin-made@example.com")
            let updated = try await emu.admin(
                "PUT", "users/\(id)", ["user_metadata": ["name": "Ada L."], "ban_duration": "24h"])
            #expect(updated.json["user_metadata"]?["name"] == "Ada L.")
            #expect(updated.json["banned_until"] != nil)
            let banned = try await emu.call(
                "POST", "/auth/v1/token?grant_type=password",
                ["email": "admin-made@example.com", "password": "secret-pw"])
            #expect(banned.goTrueCode == "user_banned")
            #expect(try await emu.admin("DELETE", "users/\(id)").status == 200)
            let gone = try await emu.admin("GET", "users/\(id)")
            #expect(gone.status == 404)
            #expect(gone.goTrueCode == "user_not_found")
        }
    }

    @Test func adminConfirmingAnEmailMakesAnAnonymousUserPermanent() async throws {
        try await SupabaseTestEmulator.with { emu in
            let guest = try await emu.anonymousSession()
            let id = try #require(guest["user"]?["id"]?.stringValue)
            let updated = try await emu.admin(
                "PUT", "users/\(id)", ["email": "confirmed@example.com", "email_confirm": true])
            #expect(updated.json["is_anonymous"] == false)
        }
    }

    @Test func deletingAUserEndsItsSessions() async throws {
        try await SupabaseTestEmulator.with { emu in
            let session = try await emu.anonymousSession()
            let id = try #require(session["user"]?["id"]?.stringValue)
            _ = try await emu.admin("DELETE", "users/\(id)")
            #expect(
                try await emu.call("GET", "/auth/v1/user", bearer: session["access_token"]?.text).goTrueCode
                    == "user_not_found")
            #expect(try await emu.refresh(session["refresh_token"]?.text).goTrueCode == "refresh_token_not_found")
        }
    }

    @Test func generateLinkReturnsTheCodeWithoutMailingIt() async throws {
        try await SupabaseTestEmulator.with { emu in
            let link = try await emu.admin(
                "POST", "generate_link", ["type": "magiclink", "email": "linked@example.com"])
            #expect(link.status == 200, "\(link.json.jsonString)")
            #expect(link.json["verification_type"] == "signup")
            #expect(link.json["email"] == "linked@example.com")
            let otp = try #require(link.json["email_otp"]?.stringValue)
            #expect(otp.count == 6)
            #expect(
                link.json["hashed_token"]?.stringValue == SupabaseHash.tokenHash(email: "linked@example.com", otp: otp))
            #expect(link.json["action_link"]?.stringValue?.hasPrefix(emu.base + "/auth/v1/verify?token=") == true)
            #expect(try await emu.messages().isEmpty)
            let verified = try await emu.call(
                "POST", "/auth/v1/verify", ["type": "email", "email": "linked@example.com", "token": .string(otp)])
            #expect(verified.status == 200)
            let recovery = try await emu.admin(
                "POST", "generate_link", ["type": "recovery", "email": "nobody@example.com"])
            #expect(recovery.status == 404)
            #expect(recovery.goTrueCode == "user_not_found")
        }
    }

    @Test func sha224MatchesTheStandardVectors() {
        #expect(
            SupabaseHash.hex(SHA224.hash(Array("abc".utf8)))
                == "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7")
        #expect(SupabaseHash.hex(SHA224.hash([])) == "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f")
    }
}
