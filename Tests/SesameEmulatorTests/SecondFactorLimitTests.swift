import Foundation
import SesameEmulatorTesting
import SesameLocalAPI
import Testing

@testable import SesameEmulator

/// Issue 31, items 3 and 16, at the emulator: the services' limits on second-factor guesses,
/// and what they answer for a code used already in the same window (docs/emulator.md).
@Suite("Emulator: second-factor limits and reused codes")
struct SecondFactorLimitTests {
    typealias MFA = GoTrueMFATests

    @Test func goTrueLimitsMFAChallengeAndVerifyPerClientWithARateLimitHeader() async throws {
        try await SupabaseTestEmulator.with(
            SupabaseEmulatorConfiguration(port: 0, rateLimitHeader: "X-Forwarded-For")
        ) { emu in
            let session = try await emu.passwordSession("bucket@example.com")
            let access = session["access_token"]?.text
            let (factor, _, _) = try await MFA.enroll(emu, access)
            func challenge(_ client: String?) async throws -> HTTPAnswer {
                try await emu.call(
                    "POST", "/auth/v1/factors/\(factor)/challenge", [:], bearer: access,
                    headers: client.map { [("X-Forwarded-For", "\($0), 10.0.0.1")] } ?? [])
            }
            // A burst of 30 from one client, then 429 over_request_rate_limit as GoTrue words it.
            for _ in 0..<30 { #expect(try await challenge("192.0.2.7").status == 200) }
            let limited = try await challenge("192.0.2.7")
            #expect(limited.status == 429)
            #expect(limited.json["code"] == 429 && limited.json["msg"] == "Request rate limit reached")
            #expect(limited.goTrueCode == "over_request_rate_limit")
            // Another client has its own bucket; without the header nothing is limited.
            #expect(try await challenge("198.51.100.9").status == 200)
            #expect(try await challenge(nil).status == 200)
            // 15 a minute: four seconds refill one request.
            emu.time.advance(seconds: 4)
            #expect(try await challenge("192.0.2.7").status == 200)
            #expect(try await challenge("192.0.2.7").status == 429)
            // Verify has its own bucket of the same size.
            let challenged = try await challenge("198.51.100.9")
            var verifies: [Int] = []
            for _ in 0..<31 {
                let answer = try await emu.call(
                    "POST", "/auth/v1/factors/\(factor)/verify",
                    ["challenge_id": challenged.json["id"] ?? .null, "code": "000000"], bearer: access,
                    headers: [("X-Forwarded-For", "203.0.113.5")])
                verifies.append(answer.status)
            }
            #expect(verifies.prefix(30).allSatisfy { $0 == 422 } && verifies.last == 429)
        }
    }

    @Test func goTrueWithoutARateLimitHeaderLimitsNothing() async throws {
        try await SupabaseTestEmulator.with { emu in
            let session = try await emu.passwordSession("free@example.com")
            let access = session["access_token"]?.text
            let (factor, _, _) = try await MFA.enroll(emu, access)
            for _ in 0..<40 {
                let answer = try await emu.call(
                    "POST", "/auth/v1/factors/\(factor)/challenge", [:], bearer: access,
                    headers: [("X-Forwarded-For", "192.0.2.7")])
                #expect(answer.status == 200)
            }
        }
    }

    @Test func identityPlatformVoidsAPendingSignInAfterTenWrongCodes() async throws {
        try await TestEmulator.with { emu in
            let (_, factorId, secret) = try await SecondFactorTests.enrolledAccount(emu, email: "ten@example.com")
            let first = try await emu.auth(
                "accounts:signInWithPassword", ["email": "ten@example.com", "password": "secret-pw"])
            let credential = try #require(first.json["mfaPendingCredential"])
            func finish(_ code: String) async throws -> HTTPAnswer {
                try await SecondFactorTests.v2(
                    emu, "mfaSignIn:finalize",
                    [
                        "mfaPendingCredential": credential, "mfaEnrollmentId": .string(factorId),
                        "totpVerificationInfo": ["verificationCode": .string(code)],
                    ])
            }
            let right = try SecondFactorTests.code(emu, secret)
            let wrong = right == "000000" ? "111111" : "000000"
            for _ in 1..<10 { #expect(try await finish(wrong).errorMessage == "INVALID_CODE") }
            let tenth = try await finish(wrong)
            #expect(tenth.status == 400 && tenth.errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
            // The pending sign-in is void: the right code no longer finishes it.
            #expect(try await finish(right).errorMessage == "INVALID_MFA_PENDING_CREDENTIAL")
        }
    }

    @Test func aCodeThatConfirmedTheEnrolmentIsAcceptedAgainForTheSignInOnIdentityPlatform() async throws {
        try await TestEmulator.with { emu in
            let (_, factorId, secret) = try await SecondFactorTests.enrolledAccount(emu, email: "reuse@example.com")
            // The emulator's clock has not moved: the enrolment's code is still the current one.
            let used = try SecondFactorTests.code(emu, secret)
            let first = try await emu.auth(
                "accounts:signInWithPassword", ["email": "reuse@example.com", "password": "secret-pw"])
            let done = try await SecondFactorTests.v2(
                emu, "mfaSignIn:finalize",
                [
                    "mfaPendingCredential": first.json["mfaPendingCredential"]!, "mfaEnrollmentId": .string(factorId),
                    "totpVerificationInfo": ["verificationCode": .string(used)],
                ])
            #expect(done.status == 200, "\(done.json.jsonString)")
        }
    }

    @Test func aCodeThatConfirmedTheFactorIsAcceptedAgainOnANewChallengeOnGoTrue() async throws {
        try await SupabaseTestEmulator.with { emu in
            let session = try await emu.passwordSession("reuse@example.com")
            let access = session["access_token"]?.text
            let (factor, totp, _) = try await MFA.enroll(emu, access)
            let used = totp.code(at: MFA.date(emu))
            #expect(try await MFA.verify(emu, access, factor, code: used).status == 200)
            // A new sign-in (aal1) in the same window: GoTrue's verify checks the code, not its reuse.
            let again = try await emu.call(
                "POST", "/auth/v1/token?grant_type=password", ["email": "reuse@example.com", "password": "secret-pw"])
            let reused = try await MFA.verify(emu, again.json["access_token"]?.text, factor, code: used)
            #expect(reused.status == 200, "\(reused.json.jsonString)")
        }
    }
}
