import SesameEmulatorTesting
import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("Supabase GoTrue: /user, upgrade in place, sign-out scopes, bearer checks")
struct GoTrueUserTests {
    @Test func upgradeInPlaceWithAutoconfirmKeepsTheIdAndFlipsTheClaimOnRefresh() async throws {
        try await SupabaseTestEmulator.with { emu in
            let session = try await emu.anonymousSession()
            let access = session["access_token"]?.text
            let update = try await emu.call(
                "PUT", "/auth/v1/user",
                ["email": "guest@example.com", "password": "secret-pw", "data": ["plan": "free"]],
                bearer: access)
            #expect(update.status == 200, "\(update.json.jsonString)")
            #expect(update.json["id"] == session["user"]?["id"])
            #expect(update.json["is_anonymous"] == false)
            #expect(update.json["email"] == "guest@example.com")
            #expect(update.json["user_metadata"]?["plan"] == "free")
            #expect(update.json["app_metadata"]?["provider"] == nil)
            #expect(SupabaseTestEmulator.claims(session["access_token"])["is_anonymous"] == true)
            let refreshed = try await emu.refresh(session["refresh_token"]?.text)
            #expect(SupabaseTestEmulator.claims(refreshed.json["access_token"])["is_anonymous"] == false)
            let signIn = try await emu.call(
                "POST", "/auth/v1/token?grant_type=password", ["email": "guest@example.com", "password": "secret-pw"])
            #expect(signIn.json["user"]?["id"] == session["user"]?["id"])
        }
    }

    @Test func upgradeRulesPasswordOnlyTakenEmailSamePassword() async throws {
        try await SupabaseTestEmulator.with { emu in
            _ = try await emu.passwordSession("taken@example.com")
            let access = try await emu.anonymousSession()["access_token"]?.text
            let passwordOnly = try await emu.call("PUT", "/auth/v1/user", ["password": "secret-pw"], bearer: access)
            #expect(passwordOnly.status == 422)
            #expect(passwordOnly.goTrueCode == "validation_failed")
            let taken = try await emu.call(
                "PUT", "/auth/v1/user", ["email": "taken@example.com"], bearer: access, versioned: true)
            #expect(taken.status == 422)
            #expect(taken.json["code"] == "email_exists")
            let own = try await emu.passwordSession("own@example.com", password: "first-pw")
            let same = try await emu.call(
                "PUT", "/auth/v1/user", ["password": "first-pw"], bearer: own["access_token"]?.text)
            #expect(same.goTrueCode == "same_password")
            let admin = try await emu.call(
                "PUT", "/auth/v1/user", ["app_metadata": ["x": 1]], bearer: own["access_token"]?.text)
            #expect(admin.status == 403)
        }
    }

    @Test func settingAPasswordEndsTheOtherSessions() async throws {
        try await SupabaseTestEmulator.with { emu in
            let first = try await emu.passwordSession("pw@example.com")
            let second = try await emu.call(
                "POST", "/auth/v1/token?grant_type=password", ["email": "pw@example.com", "password": "secret-pw"]
            ).json
            let changed = try await emu.call(
                "PUT", "/auth/v1/user", ["password": "newer-pw"], bearer: second["access_token"]?.text)
            #expect(changed.status == 200)
            #expect(try await emu.call("GET", "/auth/v1/user", bearer: second["access_token"]?.text).status == 200)
            #expect(
                try await emu.call("GET", "/auth/v1/user", bearer: first["access_token"]?.text).goTrueCode
                    == "session_not_found")
            #expect(try await emu.refresh(first["refresh_token"]?.text).goTrueCode == "refresh_token_not_found")
        }
    }

    @Test func withoutAutoconfirmTheEmailChangeWaitsForVerification() async throws {
        try await SupabaseTestEmulator.with(SupabaseEmulatorConfiguration(port: 0, autoconfirm: false)) { emu in
            let session = try await emu.anonymousSession()
            let update = try await emu.call(
                "PUT", "/auth/v1/user", ["email": "later@example.com", "password": "secret-pw"],
                bearer: session["access_token"]?.text)
            #expect(update.status == 200)
            #expect(update.json["is_anonymous"] == true)
            #expect(update.json["new_email"] == "later@example.com")
            #expect(update.json["email_change_sent_at"] != nil)
            let message = try #require(try await emu.messages().last)
            #expect(message["type"] == "email_change")
            #expect(message["email"] == "later@example.com")
            let wrong = try await emu.call(
                "POST", "/auth/v1/verify", ["type": "email_change", "email": "later@example.com", "token": "000000"])
            #expect(wrong.status == 403)
            #expect(wrong.goTrueCode == "otp_expired")
            let verified = try await emu.call(
                "POST", "/auth/v1/verify",
                ["type": "email_change", "email": "later@example.com", "token": message["otp"] ?? .null])
            #expect(verified.status == 200)
            #expect(verified.json["user"]?["id"] == session["user"]?["id"])
            #expect(verified.json["user"]?["is_anonymous"] == false)
            #expect(SupabaseTestEmulator.claims(verified.json["access_token"])["is_anonymous"] == false)
        }
    }

    @Test func withoutAutoconfirmAPermanentUserConfirmsAnEmailChangeFromBothAddresses() async throws {
        try await SupabaseTestEmulator.with(SupabaseEmulatorConfiguration(port: 0, autoconfirm: false)) { emu in
            _ = try await emu.admin(
                "POST", "users", ["email": "old@example.com", "password": "secret-pw", "email_confirm": true])
            let session = try await emu.call(
                "POST", "/auth/v1/token?grant_type=password", ["email": "old@example.com", "password": "secret-pw"]
            ).json
            let update = try await emu.call(
                "PUT", "/auth/v1/user", ["email": "new@example.com"], bearer: session["access_token"]?.text)
            #expect(update.json["email"] == "old@example.com")
            #expect(update.json["new_email"] == "new@example.com")
            let mails = try await emu.messages()
            let toNew = try #require(mails.last { $0["email"] == "new@example.com" })
            let toOld = try #require(mails.last { $0["email"] == "old@example.com" })
            #expect(toNew["type"] == "email_change")
            #expect(toOld["type"] == "email_change_current")
            let first = try await emu.call(
                "POST", "/auth/v1/verify",
                ["type": "email_change", "email": "new@example.com", "token": toNew["otp"] ?? .null])
            #expect(first.status == 200)
            #expect(first.json["access_token"] == nil)
            #expect(first.json["msg"]?.stringValue?.hasPrefix("Confirmation link accepted") == true)
            let second = try await emu.call(
                "POST", "/auth/v1/verify",
                ["type": "email_change", "email": "old@example.com", "token": toOld["otp"] ?? .null])
            #expect(second.status == 200)
            #expect(second.json["user"]?["email"] == "new@example.com")
            #expect(second.json["user"]?["new_email"] == nil)
        }
    }

    @Test func bearerChecks() async throws {
        try await SupabaseTestEmulator.with(SupabaseEmulatorConfiguration(port: 0, jwtExpirySeconds: 60)) { emu in
            let none = try await emu.call("GET", "/auth/v1/user")
            #expect(none.status == 401)
            #expect(none.goTrueCode == "no_authorization")
            let forged = SupabaseJWT(secret: String(repeating: "x", count: 40)).sign([
                "sub": "a", "role": "authenticated",
            ])
            let bad = try await emu.call("GET", "/auth/v1/user", bearer: forged)
            #expect(bad.status == 403)
            #expect(bad.goTrueCode == "bad_jwt")
            let session = try await emu.anonymousSession()
            #expect(
                try await emu.call("GET", "/auth/v1/user", bearer: session["access_token"]?.text).json["id"]
                    == session["user"]?["id"])
            emu.time.advance(seconds: 61)
            #expect(
                try await emu.call("GET", "/auth/v1/user", bearer: session["access_token"]?.text).goTrueCode
                    == "bad_jwt")
        }
    }

    @Test func signOutScopes() async throws {
        try await SupabaseTestEmulator.with { emu in
            _ = try await emu.passwordSession("scopes@example.com")
            func signIn() async throws -> JSONValue {
                try await emu.call(
                    "POST", "/auth/v1/token?grant_type=password",
                    ["email": "scopes@example.com", "password": "secret-pw"]
                ).json
            }
            let a = try await signIn(), b = try await signIn(), c = try await signIn()
            func alive(_ s: JSONValue) async throws -> Bool {
                try await emu.call("GET", "/auth/v1/user", bearer: s["access_token"]?.text).status == 200
            }
            let bogus = try await emu.call("POST", "/auth/v1/logout?scope=everything", bearer: a["access_token"]?.text)
            #expect(bogus.status == 400)
            #expect(bogus.goTrueCode == "validation_failed")
            #expect(
                try await emu.call("POST", "/auth/v1/logout?scope=others", bearer: a["access_token"]?.text).status
                    == 204)
            #expect(try await alive(a))
            #expect(try await !alive(b))
            #expect(
                try await emu.call("POST", "/auth/v1/logout?scope=local", bearer: a["access_token"]?.text).status == 204
            )
            #expect(try await !alive(a))
            let d = try await signIn(), e = try await signIn()
            #expect(try await emu.call("POST", "/auth/v1/logout", bearer: d["access_token"]?.text).status == 204)
            #expect(try await !alive(e))
            _ = c
        }
    }
}
