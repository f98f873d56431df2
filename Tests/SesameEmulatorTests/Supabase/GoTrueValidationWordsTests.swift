import Foundation
import SesameEmulatorTesting
import SesameLocalAPI
import Testing

@testable import SesameEmulator

/// Validation answers in GoTrue's own words (its source: verify.go `Validate`, otp.go,
/// admin.go's `ban_duration` with Go's `time.ParseDuration` errors): people and clients match on them.
@Suite("Supabase GoTrue: validation answers in GoTrue's words")
struct GoTrueValidationWordsTests {
    @Test("POST /verify refuses what its Validate refuses, with its messages")
    func verifyValidation() async throws {
        try await SupabaseTestEmulator.with { emu in
            let cases: [(JSONValue, String)] = [
                (["token": "123456", "email": "a@example.com"], "Verify requires a verification type"),
                (["type": "email"], "Verify requires either a token or a token hash"),
                (
                    ["type": "email", "token": "123456", "token_hash": "h"],
                    "Verify requires either a token or a token hash"
                ),
                (
                    ["type": "email", "token_hash": "h", "email": "a@example.com"],
                    "Only the token_hash and type should be provided"
                ),
                (
                    ["type": "email", "token": "123456"],
                    "Only an email address or phone number should be provided on verify"
                ),
                (["type": "nonsense", "token_hash": "h"], "Unsupported verification type"),
            ]
            for (body, message) in cases {
                let answer = try await emu.call("POST", "/auth/v1/verify", body)
                #expect(answer.status == 400, "\(body)")
                #expect(answer.goTrueCode == "validation_failed", "\(body)")
                #expect(answer.json["msg"]?.stringValue == message, "\(body): \(answer.json)")
            }
        }
    }

    @Test("POST /otp without an address: One of email or phone must be set")
    func otpWithoutAddress() async throws {
        try await SupabaseTestEmulator.with { emu in
            let answer = try await emu.call("POST", "/auth/v1/otp", ["create_user": true])
            #expect(answer.status == 400 && answer.goTrueCode == "validation_failed")
            #expect(answer.json["msg"]?.stringValue == "One of email or phone must be set")
        }
    }

    @Test("ban_duration: Go durations, refused in Go's words")
    func banDuration() async throws {
        try await SupabaseTestEmulator.with { emu in
            let made = try await emu.admin("POST", "users", ["email": "ban@example.com", "password": "secret-pw"])
            let id = try #require(made.json["id"]?.stringValue)
            let refused: [(String, String)] = [
                ("90", #"time: missing unit in duration "90""#), ("1d", #"time: unknown unit "d" in duration "1d""#),
                ("h", #"time: invalid duration "h""#),
            ]
            for (value, problem) in refused {
                let answer = try await emu.admin("PUT", "users/\(id)", ["ban_duration": .string(value)])
                #expect(answer.status == 400 && answer.goTrueCode == "validation_failed")
                #expect(answer.json["msg"]?.stringValue == "invalid format for ban duration: " + problem)
            }
            for value in ["1h30m", "0s", "none"] {
                #expect(
                    try await emu.admin("PUT", "users/\(id)", ["ban_duration": .string(value)]).status == 200,
                    "\(value)")
            }
        }
    }
}
