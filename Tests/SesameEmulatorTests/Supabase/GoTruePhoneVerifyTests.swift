import SesameLocalAPI
import Testing

@testable import SesameEmulator

/// `POST /verify` with a phone, as GoTrue answers with the phone provider off (no phone users).
@Suite("Supabase GoTrue: phone verification with the phone provider off")
struct GoTruePhoneVerifyTests {
    @Test func aMalformedNumberIsGoTruesE164MessageAndAWellFormedOneOtpExpired() async throws {
        try await SupabaseTestEmulator.with { emu in
            for phone in ["1", "+0155555501", "+1555abc0100", "+1234567890123456"] {
                let answer = try await emu.call(
                    "POST", "/auth/v1/verify", ["type": "sms", "phone": .string(phone), "token": "123456"])
                #expect(answer.status == 400, "\(phone)")
                #expect(answer.goTrueCode == "validation_failed")
                #expect(answer.json["msg"] == "Invalid phone number format (E.164 required)")
            }
            for (type, phone) in [("sms", "+1 555 555 0100"), ("phone_change", "15555550100")] {
                let answer = try await emu.call(
                    "POST", "/auth/v1/verify", ["type": .string(type), "phone": .string(phone), "token": "123456"],
                    versioned: true)
                #expect(answer.status == 403)
                #expect(answer.json == ["code": "otp_expired", "message": "Token has expired or is invalid"])
            }
            #expect(GoTrueStore.isE164("+15555550100"))
            #expect(!GoTrueStore.isE164("+"))
        }
    }
}
