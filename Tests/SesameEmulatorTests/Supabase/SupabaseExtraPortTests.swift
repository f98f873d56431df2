import SesameEmulatorTesting
import SesameLocalAPI
import Testing

@testable import SesameEmulator

/// `--supabase-extra-port`: further GoTrue servers over the main port's users, as supabase-py's
/// four test servers (GoTrue at `/`, settings of their own) share one Postgres.
@Suite("Supabase extra ports: one user store behind several GoTrue servers")
struct SupabaseExtraPortTests {
    /// The main port (gateway, autoconfirm on), a bare GoTrue with autoconfirm off, and a bare
    /// GoTrue with signups disabled (`GOTRUE_DISABLE_SIGNUP`).
    static func configuration() -> EmulatorConfiguration {
        var configuration = EmulatorConfiguration(supabase: SupabaseEmulatorConfiguration(port: 0))
        var confirmOff = SupabaseEmulatorConfiguration(port: 0, autoconfirm: false)
        confirmOff.layout = .gotrue
        confirmOff.phoneEnabled = true
        var signupOff = SupabaseEmulatorConfiguration(port: 0, autoconfirm: false)
        signupOff.layout = .gotrue
        signupOff.signupEnabled = false
        configuration.supabaseExtraPorts = [confirmOff, signupOff]
        return configuration
    }

    typealias Body = (SupabaseTestEmulator, _ confirmOff: String, _ signupOff: String) async throws -> Void

    static func with(_ body: Body) async throws {
        let time = EmulatorTime()
        try await withEmulator(configuration(), time: time) { emulator in
            let extra = emulator.supabaseExtraPorts.map { "http://127.0.0.1:\($0)" }
            try #require(extra.count == 2)
            let emu = SupabaseTestEmulator(
                emulator: emulator, time: time, base: "http://127.0.0.1:\(try #require(emulator.supabasePort))",
                anonKey: try #require(emulator.supabaseAnonKey),
                serviceKey: try #require(emulator.supabaseServiceRoleKey))
            try await body(emu, extra[0], extra[1])
        }
    }

    /// A request to a bare GoTrue port: no gateway, so no `apikey`.
    static func bare(
        _ emu: SupabaseTestEmulator, _ method: String, _ url: String, _ body: JSONValue? = nil, bearer: String? = nil
    ) async throws -> HTTPAnswer {
        var headers: [(String, String)] = body == nil ? [] : [("Content-Type", "application/json")]
        if let bearer { headers.append(("Authorization", "Bearer \(bearer)")) }
        return try await TestEmulator(emulator: emu.emulator, time: emu.time).request(
            method, url, body: body?.serialized(), headers: headers)
    }

    /// supabase-py's `update_user_by_id(id, {"email_confirm": True})`: the user signed up on the
    /// autoconfirm-off server is confirmed through another server's admin API (GoTrue's
    /// `adminUserUpdate` loads the user from the database every server shares), then signs in.
    @Test func aUserMadeOnOnePortIsConfirmedThroughAnotherPortsAdminAPI() async throws {
        try await Self.with { emu, confirmOff, _ in
            let credentials: JSONValue = ["email": "shared@example.com", "password": "secret-pw"]
            let signedUp = try await Self.bare(emu, "POST", confirmOff + "/signup", credentials)
            #expect(signedUp.status == 200, "\(signedUp.json.jsonString)")
            let id = try #require(signedUp.json["id"]?.stringValue)
            #expect(signedUp.json["email_confirmed_at"] == nil || signedUp.json["email_confirmed_at"] == .null)
            let refused = try await Self.bare(emu, "POST", confirmOff + "/token?grant_type=password", credentials)
            #expect(refused.goTrueCode == "email_not_confirmed")

            let confirmed = try await emu.admin("PUT", "users/\(id)", ["email_confirm": true])
            #expect(confirmed.status == 200, "\(confirmed.json.jsonString)")
            #expect(confirmed.json["email_confirmed_at"]?.stringValue != nil)

            let session = try await Self.bare(emu, "POST", confirmOff + "/token?grant_type=password", credentials)
            #expect(session.status == 200, "\(session.json.jsonString)")
            // A bare GoTrue's tokens are issued by its own URL (API_EXTERNAL_URL), without /auth/v1.
            #expect(SupabaseTestEmulator.claims(session.json["access_token"])["iss"] == .string(confirmOff))
        }
    }

    /// The other way round: made by the main port's admin API, updated through a bare server's.
    @Test func aUserMadeOnTheMainPortIsUpdatedThroughABareServer() async throws {
        try await Self.with { emu, confirmOff, _ in
            let created = try await emu.admin("POST", "users", ["email": "made-on-main@example.com"])
            let id = try #require(created.json["id"]?.stringValue)
            let updated = try await Self.bare(
                emu, "PUT", confirmOff + "/admin/users/\(id)", ["email_confirm": true, "user_metadata": ["n": 1]],
                bearer: emu.serviceKey)
            #expect(updated.status == 200, "\(updated.json.jsonString)")
            #expect(updated.json["user_metadata"]?["n"] == 1)
            let seen = try await emu.admin("GET", "users/\(id)")
            #expect(seen.json["email_confirmed_at"]?.stringValue != nil)
            #expect(seen.json["user_metadata"]?["n"] == 1)
        }
    }

    /// GoTrue's signup.go: with `GOTRUE_DISABLE_SIGNUP`, `POST /signup` (and what would make a
    /// new user: magic_link.go, external.go) is 422 `signup_disabled`
    /// "Signups not allowed for this instance" (anonymous.go too), while the other ports sign up.
    @Test func aServerWithSignupsDisabledRefusesThemInGoTruesWords() async throws {
        try await Self.with { emu, _, signupOff in
            let refused = try await Self.bare(
                emu, "POST", signupOff + "/signup", ["email": "nobody@example.com", "password": "secret-pw"])
            #expect(refused.status == 422)
            #expect(refused.goTrueCode == "signup_disabled")
            #expect(refused.json["msg"] == "Signups not allowed for this instance")
            let anonymous = try await Self.bare(emu, "POST", signupOff + "/signup", [:])
            #expect(anonymous.goTrueCode == "signup_disabled")
            // magic_link.go signs a new address up through signup.go: refused the same way.
            let otp = try await Self.bare(emu, "POST", signupOff + "/otp", ["email": "new-by-otp@example.com"])
            #expect(otp.goTrueCode == "signup_disabled")
            // external.go's CreateAccount: a federated sign-in that would make a new user.
            let token = GoTrueIdTokenTests.idToken([
                "sub": "g-off", "email": "fed-off@example.com", "email_verified": true,
            ])
            let federated = try await Self.bare(
                emu, "POST", signupOff + "/token?grant_type=id_token",
                ["provider": "google", "id_token": .string(token)])
            #expect(federated.goTrueCode == "signup_disabled")
            // settings.go reports it as `disable_signup`.
            #expect(try await Self.bare(emu, "GET", signupOff + "/settings").json["disable_signup"] == true)
            _ = try await emu.passwordSession("somebody@example.com")
        }
    }

    /// GoTrue's resend.go with the phone provider on: the number is checked (phone.go's
    /// validatePhone), then a number no user has answers `{}`; with it off, "Phone logins are disabled".
    @Test func resendingAnSMSToANumberNoUserHasAnswersEmptyWhereThePhoneProviderIsOn() async throws {
        try await Self.with { emu, confirmOff, signupOff in
            let sent = try await Self.bare(emu, "POST", confirmOff + "/resend", ["phone": "+112345678", "type": "sms"])
            #expect(sent.status == 200)
            #expect(sent.json == [:])
            let malformed = try await Self.bare(emu, "POST", confirmOff + "/resend", ["phone": "+0123", "type": "sms"])
            #expect(malformed.goTrueCode == "validation_failed")
            #expect(malformed.json["msg"] == "Invalid phone number format (E.164 required)")
            let off = try await Self.bare(emu, "POST", signupOff + "/resend", ["phone": "+112345678", "type": "sms"])
            #expect(off.goTrueCode == "phone_provider_disabled")
        }
    }
}
