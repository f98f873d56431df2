import SesameEmulatorTesting
import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("Supabase GoTrue: /resend mails again behind the 60 s timer; the admin's /invite")
struct GoTrueResendInviteTests {
    static let mailing = SupabaseEmulatorConfiguration(port: 0, autoconfirm: false)

    private func resend(_ emu: SupabaseTestEmulator, _ body: JSONValue) async throws -> HTTPAnswer {
        try await emu.call("POST", "/auth/v1/resend", body)
    }

    @Test func resendMailsTheSignupConfirmationAgainAfterTheTimer() async throws {
        try await SupabaseTestEmulator.with(Self.mailing) { emu in
            let signUp = try await emu.call(
                "POST", "/auth/v1/signup", ["email": "resent@example.com", "password": "secret-pw"])
            #expect(signUp.status == 200, "\(signUp.json.jsonString)")
            #expect(try await emu.messages().count == 1)
            let early = try await resend(emu, ["type": "signup", "email": "resent@example.com"])
            #expect(early.status == 429 && early.goTrueCode == "over_email_send_rate_limit")
            emu.time.advance(seconds: 61)
            let again = try await resend(emu, ["type": "signup", "email": "resent@example.com"])
            #expect(again.status == 200 && again.json == [:], "\(again.json.jsonString)")
            let mails = try await emu.messages()
            #expect(mails.count == 2)
            #expect(mails.last?["type"] == "signup")
            let verified = try await emu.call(
                "POST", "/auth/v1/verify",
                ["type": "signup", "email": "resent@example.com", "token": mails.last?["otp"] ?? .null])
            #expect(verified.status == 200, "\(verified.json.jsonString)")
            // Confirmed now, and an unknown address: `{}` and nothing mailed.
            emu.time.advance(seconds: 61)
            #expect(try await resend(emu, ["type": "signup", "email": "resent@example.com"]).json == [:])
            #expect(try await resend(emu, ["type": "signup", "email": "nobody@example.com"]).json == [:])
            #expect(try await emu.messages().count == 2)
        }
    }

    @Test func resendSendsAPendingEmailChangeToBothAddresses() async throws {
        try await SupabaseTestEmulator.with { emu in
            let session = try await emu.passwordSession("before@example.com")
            let change = try await emu.call(
                "PUT", "/auth/v1/user", ["email": "after@example.com"], bearer: session["access_token"]?.text)
            #expect(change.status == 200)
            #expect(try await emu.messages().count == 2)
            emu.time.advance(seconds: 61)
            let again = try await resend(emu, ["type": "email_change", "email": "before@example.com"])
            #expect(again.status == 200, "\(again.json.jsonString)")
            let mails = try await emu.messages().suffix(2)
            #expect(Set(mails.compactMap { $0["email"]?.stringValue }) == ["after@example.com", "before@example.com"])
            #expect(Set(mails.compactMap { $0["type"]?.stringValue }) == ["email_change", "email_change_current"])
        }
    }

    @Test func resendRefusesWhatGoTrueRefuses() async throws {
        try await SupabaseTestEmulator.with { emu in
            let noType = try await resend(emu, ["email": "x@example.com"])
            #expect(noType.status == 400 && noType.goTrueCode == "validation_failed")
            #expect(noType.json["msg"] == "Missing one of these types: signup, email_change, sms, phone_change")
            let noEmail = try await resend(emu, ["type": "signup"])
            #expect(noEmail.json["msg"] == "Type provided requires an email address")
            let sms = try await resend(emu, ["type": "sms", "phone": "+15555550100"])
            #expect(sms.status == 400 && sms.goTrueCode == "phone_provider_disabled")
            #expect(sms.json["msg"] == "Phone logins are disabled")
            let both = try await resend(emu, ["type": "signup", "email": "x@example.com", "phone": "+15555550100"])
            #expect(both.json["msg"] == "Only an email address or phone number should be provided.")
        }
    }

    @Test func inviteCreatesTheUserAndMailsALinkThatSignsIn() async throws {
        try await SupabaseTestEmulator.with { emu in
            let invited = try await emu.call(
                "POST", "/auth/v1/invite?redirect_to=http%3A%2F%2F127.0.0.1%3A3000%2Fwelcome",
                ["email": "Invited@Example.com", "data": ["team": "ops"]], bearer: emu.serviceKey,
                apikey: emu.serviceKey)
            #expect(invited.status == 200, "\(invited.json.jsonString)")
            #expect(invited.json["email"] == "invited@example.com")
            #expect(invited.json["invited_at"]?.stringValue != nil)
            #expect(invited.json["email_confirmed_at"] == nil || invited.json["email_confirmed_at"] == .null)
            #expect(invited.json["user_metadata"]?["team"] == "ops")
            let mail = try #require(try await emu.messages().last)
            #expect(mail["type"] == "invite")
            let link = try #require(mail["link"]?.stringValue)
            #expect(link.contains("type=invite"))
            #expect(link.contains("redirect_to=http%3A%2F%2F127.0.0.1%3A3000%2Fwelcome"))
            let session = try await emu.call(
                "POST", "/auth/v1/verify", ["type": "invite", "token_hash": mail["hashed_token"] ?? .null])
            #expect(session.status == 200, "\(session.json.jsonString)")
            #expect(session.json["user"]?["id"] == invited.json["id"])
            #expect(session.json["user"]?["email_confirmed_at"]?.stringValue != nil)

            let again = try await emu.call(
                "POST", "/auth/v1/invite", ["email": "invited@example.com"], bearer: emu.serviceKey,
                apikey: emu.serviceKey)
            #expect(again.status == 422 && again.goTrueCode == "email_exists")
            let anon = try await emu.call("POST", "/auth/v1/invite", ["email": "z@example.com"], bearer: emu.anonKey)
            #expect(anon.status == 403 && anon.goTrueCode == "not_admin")
        }
    }
}
