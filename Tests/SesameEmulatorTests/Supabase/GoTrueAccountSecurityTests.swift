import Foundation
import SesameEmulatorTesting
import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("Supabase GoTrue: reauthentication nonce, secure password change, recovery, email change")
struct GoTrueAccountSecurityTests {
    @Test func reauthenticateMailsANonceOnItsOwnTimer() async throws {
        try await SupabaseTestEmulator.with { emu in
            let session = try await emu.passwordSession("nonce@example.com")
            let access = session["access_token"]?.text
            let sent = try await emu.call("GET", "/auth/v1/reauthenticate", bearer: access)
            #expect(sent.status == 200 && sent.json == [:])
            let mail = try #require(try await emu.messages().last)
            #expect(mail["type"] == "reauthentication" && mail["email"] == "nonce@example.com")
            #expect(mail["otp"]?.stringValue?.count == 6 && mail["link"] == "")
            #expect(try await emu.call("GET", "/auth/v1/user", bearer: access).json["reauthentication_sent_at"] != nil)
            let soon = try await emu.call("GET", "/auth/v1/reauthenticate", bearer: access)
            #expect(soon.status == 429 && soon.goTrueCode == "over_email_send_rate_limit")
            #expect(try await emu.call("GET", "/auth/v1/reauthenticate").status == 401)
        }
    }

    @Test func securePasswordChangeNeedsTheNonceOnlyFromASessionOlderThanADay() async throws {
        let configuration = SupabaseEmulatorConfiguration(port: 0, securePasswordChange: true)
        try await SupabaseTestEmulator.with(configuration) { emu in
            let session = try await emu.passwordSession("secure@example.com", password: "first-pw")
            let fresh = try await emu.call(
                "PUT", "/auth/v1/user", ["password": "second-pw"], bearer: session["access_token"]?.text)
            #expect(fresh.status == 200)
            emu.time.advance(seconds: 86_401)
            let access = try await emu.refresh(session["refresh_token"]?.text).json["access_token"]?.text
            let none = try await emu.call("PUT", "/auth/v1/user", ["password": "third-pw"], bearer: access)
            #expect(none.status == 400 && none.goTrueCode == "reauthentication_needed")
            #expect(try await emu.call("GET", "/auth/v1/reauthenticate", bearer: access).status == 200)
            let nonce = try #require(try await emu.messages().last?["otp"]?.stringValue)
            let wrong = try await emu.call(
                "PUT", "/auth/v1/user", ["password": "third-pw", "nonce": nonce == "000000" ? "111111" : "000000"],
                bearer: access)
            #expect(wrong.status == 422 && wrong.goTrueCode == "reauthentication_not_valid")
            let right = try await emu.call(
                "PUT", "/auth/v1/user", ["password": "third-pw", "nonce": .string(nonce)], bearer: access)
            #expect(right.status == 200)
            let replay = try await emu.call(
                "PUT", "/auth/v1/user", ["password": "fourth-pw", "nonce": .string(nonce)], bearer: access)
            #expect(replay.goTrueCode == "reauthentication_not_valid")
        }
    }

    @Test func withAutoconfirmEitherAddressConfirmsTheEmailChangeAlone() async throws {
        try await SupabaseTestEmulator.with { emu in
            let session = try await emu.passwordSession("first@example.com")
            _ = try await emu.call(
                "PUT", "/auth/v1/user", ["email": "second@example.com"], bearer: session["access_token"]?.text)
            let toOld = try #require(try await emu.messages().last { $0["email"] == "first@example.com" })
            #expect(toOld["type"] == "email_change_current")
            let verified = try await emu.call(
                "POST", "/auth/v1/verify", ["type": "email_change", "token_hash": toOld["hashed_token"] ?? .null])
            #expect(verified.status == 200)
            #expect(verified.json["user"]?["email"] == "second@example.com")
            #expect(verified.json["user"]?["new_email"] == nil)
            let toNew = try #require(try await emu.messages().last { $0["email"] == "second@example.com" })
            let spent = try await emu.call(
                "POST", "/auth/v1/verify", ["type": "email_change", "token_hash": toNew["hashed_token"] ?? .null])
            #expect(spent.goTrueCode == "otp_expired")
        }
    }

    @Test func recoveryByCodeAndByTokenHashAnswersASession() async throws {
        try await SupabaseTestEmulator.with { emu in
            _ = try await emu.passwordSession("lost@example.com", password: "first-pw")
            #expect(try await emu.call("POST", "/auth/v1/recover", ["email": "lost@example.com"]).status == 200)
            let mail = try #require(try await emu.messages().last)
            #expect(mail["type"] == "recovery")
            let byCode = try await emu.call(
                "POST", "/auth/v1/verify",
                ["type": "recovery", "email": "lost@example.com", "token": mail["otp"] ?? .null])
            #expect(byCode.status == 200 && byCode.json["access_token"] != nil)
            let changed = try await emu.call(
                "PUT", "/auth/v1/user", ["password": "second-pw"], bearer: byCode.json["access_token"]?.text)
            #expect(changed.status == 200)
            emu.time.advance(seconds: 61)
            _ = try await emu.call("POST", "/auth/v1/recover", ["email": "lost@example.com"])
            let link = try #require(try await emu.messages().last)
            let byHash = try await emu.call(
                "POST", "/auth/v1/verify", ["type": "recovery", "token_hash": link["hashed_token"] ?? .null])
            #expect(byHash.status == 200 && byHash.json["user"]?["email"] == "lost@example.com")
        }
    }
}
