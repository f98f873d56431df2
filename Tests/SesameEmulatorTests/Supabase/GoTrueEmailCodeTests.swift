import SesameEmulatorTesting
import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("Supabase GoTrue: OTP, magic link, recovery, verify")
struct GoTrueEmailCodeTests {
    @Test func otpSignInWithTheSixDigitCode() async throws {
        try await SupabaseTestEmulator.with { emu in
            let sent = try await emu.call("POST", "/auth/v1/otp", ["email": "otp@example.com", "create_user": true])
            #expect(sent.status == 200)
            #expect(sent.json == [:])
            let message = try #require(try await emu.messages().last)
            #expect(message["email"] == "otp@example.com")
            let code = try #require(message["otp"]?.stringValue)
            #expect(code.count == 6 && code.allSatisfy(\.isNumber))
            #expect(message["link"]?.stringValue?.contains("/auth/v1/verify?token=") == true)
            let again = try await emu.call("POST", "/auth/v1/otp", ["email": "otp@example.com"])
            #expect(again.status == 429)
            #expect(again.goTrueCode == "over_email_send_rate_limit")
            let wrong = try await emu.call(
                "POST", "/auth/v1/verify", ["type": "email", "email": "otp@example.com", "token": "999999x"])
            #expect(wrong.status == 403)
            #expect(wrong.goTrueCode == "otp_expired")
            let verified = try await emu.call(
                "POST", "/auth/v1/verify", ["type": "email", "email": "otp@example.com", "token": .string(code)])
            #expect(verified.status == 200)
            #expect(verified.json["user"]?["email_confirmed_at"] != nil)
            #expect(verified.json["user"]?["is_anonymous"] == false)
            let used = try await emu.call(
                "POST", "/auth/v1/verify", ["type": "email", "email": "otp@example.com", "token": .string(code)])
            #expect(used.goTrueCode == "otp_expired")
            // An existing user gets a magic link code, also accepted by token_hash.
            emu.time.advance(seconds: 61)
            #expect(try await emu.call("POST", "/auth/v1/otp", ["email": "otp@example.com"]).status == 200)
            let magic = try #require(try await emu.messages().last)
            #expect(magic["type"] == "magiclink")
            let byHash = try await emu.call(
                "POST", "/auth/v1/verify", ["type": "magiclink", "token_hash": magic["hashed_token"] ?? .null])
            #expect(byHash.status == 200)
            #expect(byHash.json["user"]?["id"] == verified.json["user"]?["id"])
        }
    }

    @Test func otpWithoutCreateUserRefusesUnknownAddresses() async throws {
        try await SupabaseTestEmulator.with { emu in
            let answer = try await emu.call(
                "POST", "/auth/v1/otp", ["email": "nobody@example.com", "create_user": false])
            #expect(answer.status == 422)
            #expect(answer.goTrueCode == "otp_disabled")
        }
    }

    @Test func codesExpireAfterADay() async throws {
        try await SupabaseTestEmulator.with { emu in
            _ = try await emu.call("POST", "/auth/v1/otp", ["email": "late@example.com"])
            let code = try #require(try await emu.messages().last?["otp"])
            emu.time.advance(seconds: 86_401)
            let late = try await emu.call(
                "POST", "/auth/v1/verify", ["type": "email", "email": "late@example.com", "token": code])
            #expect(late.goTrueCode == "otp_expired")
        }
    }

    @Test func recoveryMailsKnownAddressesOnlyAndTheLinkRedirectsWithASession() async throws {
        try await SupabaseTestEmulator.with { emu in
            _ = try await emu.passwordSession("lost@example.com")
            #expect(try await emu.call("POST", "/auth/v1/recover", ["email": "unknown@example.com"]).status == 200)
            #expect(try await emu.messages().isEmpty)
            #expect(try await emu.call("POST", "/auth/v1/recover", ["email": "lost@example.com"]).status == 200)
            let message = try #require(try await emu.messages().last)
            #expect(message["type"] == "recovery")
            let link = try #require(message["link"]?.stringValue)
            let path = String(link.dropFirst(emu.base.count))
            let redirect = try await emu.call("GET", path, apikey: nil)
            #expect(redirect.status == 303)
            let location = try #require(redirect.header("Location"))
            #expect(location.contains("#access_token="))
            #expect(location.contains("refresh_token="))
            #expect(location.contains("type=recovery"))
            let reused = try await emu.call("GET", path, apikey: nil)
            #expect(reused.header("Location")?.contains("error_code=otp_expired") == true)
        }
    }
}
