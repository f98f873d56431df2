import Foundation
import SesameEmulatorTesting
import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("Supabase GoTrue: TOTP factors, assurance levels")
struct GoTrueMFATests {
    /// The emulator's "now" (its clock is moved by hand).
    static func date(_ emu: SupabaseTestEmulator) -> Date {
        Date(timeIntervalSince1970: TimeInterval(emu.time.clock.milliseconds()) / 1000)
    }

    /// Enrols a TOTP factor with the session's token; returns the factor id and its TOTP.
    static func enroll(
        _ emu: SupabaseTestEmulator, _ access: String?, name: String = "phone"
    ) async throws -> (String, TOTP, JSONValue) {
        let answer = try await emu.call(
            "POST", "/auth/v1/factors", ["factor_type": "totp", "friendly_name": .string(name), "issuer": "Sesame"],
            bearer: access)
        #expect(answer.status == 200, "\(answer.json.jsonString)")
        let secret = try #require(answer.json["totp"]?["secret"]?.stringValue)
        return (try #require(answer.json["id"]?.stringValue), try #require(TOTP(base32: secret)), answer.json)
    }

    /// Challenges and verifies `factor` with `code`.
    static func verify(
        _ emu: SupabaseTestEmulator, _ access: String?, _ factor: String, code: String
    ) async throws -> HTTPAnswer {
        let challenge = try await emu.call("POST", "/auth/v1/factors/\(factor)/challenge", [:], bearer: access)
        #expect(challenge.status == 200, "\(challenge.json.jsonString)")
        return try await emu.call(
            "POST", "/auth/v1/factors/\(factor)/verify",
            ["challenge_id": challenge.json["id"] ?? .null, "code": .string(code)], bearer: access)
    }

    static func wrongCode(_ totp: TOTP, _ date: Date) -> String {
        let near = Set((-3...3).map { totp.code(at: date.addingTimeInterval(Double($0) * 30)) })
        return ["000000", "111111", "222222"].first { !near.contains($0) } ?? "333333"
    }

    @Test func enrolmentAnswersTheSecretTheURIAndAnSVGQRCode() async throws {
        try await SupabaseTestEmulator.with { emu in
            let session = try await emu.passwordSession("enrol@example.com")
            let (id, totp, json) = try await Self.enroll(emu, session["access_token"]?.text)
            #expect(json["type"] == "totp" && json["friendly_name"] == "phone")
            let uri = try #require(json["totp"]?["uri"]?.stringValue)
            #expect(uri.hasPrefix("otpauth://totp/Sesame:enrol@example.com?"))
            #expect(uri.contains("secret=\(totp.base32)") && uri.contains("issuer=Sesame") && uri.contains("digits=6"))
            #expect(json["totp"]?["qr_code"]?.stringValue?.hasPrefix("<svg") == true)
            let user = try await emu.call("GET", "/auth/v1/user", bearer: session["access_token"]?.text).json
            #expect(user["factors"]?.arrayValue?.first?["id"]?.stringValue == id)
            #expect(user["factors"]?.arrayValue?.first?["status"] == "unverified")
            #expect(user["factors"]?.arrayValue?.first?["factor_type"] == "totp")
            #expect(user.jsonString.contains(totp.base32) == false)
            let userId = try #require(user["id"]?.stringValue)
            let admin = try await emu.admin("GET", "users/\(userId)").json
            #expect(admin["factors"]?.arrayValue?.first?["id"]?.stringValue == id)
            let again = try await emu.call(
                "POST", "/auth/v1/factors", ["factor_type": "totp", "friendly_name": "phone"],
                bearer: session["access_token"]?.text)
            #expect(again.status == 422 && again.goTrueCode == "mfa_factor_name_conflict")
            let phone = try await emu.call(
                "POST", "/auth/v1/factors", ["factor_type": "sms"], bearer: session["access_token"]?.text)
            #expect(phone.status == 400 && phone.goTrueCode == "validation_failed")
            let guest = try await emu.anonymousSession()
            let anonymous = try await emu.call(
                "POST", "/auth/v1/factors", ["factor_type": "totp"], bearer: guest["access_token"]?.text)
            #expect(anonymous.status == 403 && anonymous.goTrueCode == "no_authorization")
        }
    }

    @Test func verifyingRaisesTheSessionToAAL2WithATotpAMREntry() async throws {
        try await SupabaseTestEmulator.with { emu in
            let session = try await emu.passwordSession("aal@example.com")
            let access = session["access_token"]?.text
            #expect(SupabaseTestEmulator.claims(session["access_token"])["aal"] == "aal1")
            let other = try await emu.call(
                "POST", "/auth/v1/token?grant_type=password", ["email": "aal@example.com", "password": "secret-pw"])
            let (id, totp, _) = try await Self.enroll(emu, access)
            let wrong = try await Self.verify(emu, access, id, code: Self.wrongCode(totp, Self.date(emu)))
            #expect(wrong.status == 422 && wrong.goTrueCode == "mfa_verification_failed")
            let short = try await Self.verify(emu, access, id, code: "12345")
            #expect(short.goTrueCode == "mfa_verification_failed")
            let letters = try await Self.verify(emu, access, id, code: "12a456")
            #expect(letters.goTrueCode == "mfa_verification_failed")
            let right = try await Self.verify(emu, access, id, code: totp.code(at: Self.date(emu)))
            #expect(right.status == 200, "\(right.json.jsonString)")
            let claims = SupabaseTestEmulator.claims(right.json["access_token"])
            #expect(claims["aal"] == "aal2")
            let methods = claims["amr"]?.arrayValue?.compactMap { $0["method"]?.stringValue }
            #expect(methods == ["totp", "password"])
            #expect(right.json["user"]?["factors"]?.arrayValue?.first?["status"] == "verified")
            // The refresh keeps aal2; the token issued before the verification is gone.
            let refreshed = try await emu.refresh(right.json["refresh_token"]?.text)
            #expect(SupabaseTestEmulator.claims(refreshed.json["access_token"])["aal"] == "aal2")
            #expect(try await emu.refresh(session["refresh_token"]?.text).goTrueCode == "refresh_token_not_found")
            // The user's other aal1 sessions end.
            #expect(
                try await emu.call("GET", "/auth/v1/user", bearer: other.json["access_token"]?.text).goTrueCode
                    == "session_not_found")
            // A new sign-in is aal1 and lists the verified factor.
            let again = try await emu.call(
                "POST", "/auth/v1/token?grant_type=password", ["email": "aal@example.com", "password": "secret-pw"])
            #expect(SupabaseTestEmulator.claims(again.json["access_token"])["aal"] == "aal1")
            #expect(again.json["user"]?["factors"]?.arrayValue?.first?["id"]?.stringValue == id)
        }
    }

    @Test func aal1SessionsOfAUserWithAFactorCannotChangeSecretsOrUnenrol() async throws {
        try await SupabaseTestEmulator.with { emu in
            let session = try await emu.passwordSession("guard@example.com")
            let (id, totp, _) = try await Self.enroll(emu, session["access_token"]?.text)
            let raised = try await Self.verify(
                emu, session["access_token"]?.text, id, code: totp.code(at: Self.date(emu)))
            let low = try await emu.call(
                "POST", "/auth/v1/token?grant_type=password", ["email": "guard@example.com", "password": "secret-pw"]
            ).json["access_token"]?.text
            let password = try await emu.call("PUT", "/auth/v1/user", ["password": "other-pw"], bearer: low)
            #expect(password.status == 401 && password.goTrueCode == "insufficient_aal")
            let email = try await emu.call("PUT", "/auth/v1/user", ["email": "x@example.com"], bearer: low)
            #expect(email.status == 401 && email.goTrueCode == "insufficient_aal")
            let unenrol = try await emu.call("DELETE", "/auth/v1/factors/\(id)", bearer: low)
            #expect(unenrol.status == 422 && unenrol.goTrueCode == "insufficient_aal")
            let second = try await emu.call(
                "POST", "/auth/v1/factors", ["factor_type": "totp", "friendly_name": "second"], bearer: low)
            #expect(second.status == 403 && second.goTrueCode == "insufficient_aal")
            let high = raised.json["access_token"]?.text
            let removed = try await emu.call("DELETE", "/auth/v1/factors/\(id)", bearer: high)
            #expect(removed.status == 200 && removed.json["id"]?.stringValue == id)
            #expect(
                try await emu.call("DELETE", "/auth/v1/factors/\(id)", bearer: high).goTrueCode
                    == "mfa_factor_not_found")
            // The session it raised is aal1 again from its next token on.
            let lowered = try await emu.refresh(raised.json["refresh_token"]?.text)
            #expect(SupabaseTestEmulator.claims(lowered.json["access_token"])["aal"] == "aal1")
            #expect(lowered.json["user"]?["factors"] == nil)
        }
    }

    @Test func aChallengeExpiresAfterFiveMinutesAndIsSpentOnce() async throws {
        try await SupabaseTestEmulator.with { emu in
            let session = try await emu.passwordSession("expiry@example.com")
            let access = session["access_token"]?.text
            let (id, totp, _) = try await Self.enroll(emu, access)
            let challenge = try await emu.call("POST", "/auth/v1/factors/\(id)/challenge", [:], bearer: access)
            let expiresAt = try #require(challenge.json["expires_at"]?.intValue)
            #expect(expiresAt == emu.time.clock.milliseconds() / 1000 + 300)
            emu.time.advance(seconds: 301)
            let late = try await emu.call(
                "POST", "/auth/v1/factors/\(id)/verify",
                ["challenge_id": challenge.json["id"] ?? .null, "code": .string(totp.code(at: Self.date(emu)))],
                bearer: access)
            #expect(late.status == 422 && late.goTrueCode == "mfa_challenge_expired")
            let fresh = try await emu.call("POST", "/auth/v1/factors/\(id)/challenge", [:], bearer: access)
            let body: JSONValue = [
                "challenge_id": fresh.json["id"] ?? .null, "code": .string(totp.code(at: Self.date(emu))),
            ]
            let used = try await emu.call("POST", "/auth/v1/factors/\(id)/verify", body, bearer: access)
            #expect(used.status == 200)
            let replay = try await emu.call(
                "POST", "/auth/v1/factors/\(id)/verify", body, bearer: used.json["access_token"]?.text)
            #expect(replay.status == 422 && replay.goTrueCode == "mfa_ip_address_mismatch")
            let foreign = try await emu.call(
                "POST", "/auth/v1/factors/\(UUID().uuidString)/challenge", [:], bearer: access)
            #expect(foreign.status == 404 && foreign.goTrueCode == "mfa_factor_not_found")
        }
    }
}

@Suite("Supabase GoTrue: second factors in a saved state")
struct GoTrueMFASnapshotTests {
    @Test func factorsAndRaisedSessionsOutliveASnapshot() async throws {
        let time = EmulatorTime()
        let configuration = SupabaseEmulatorConfiguration(port: 0)
        let store = GoTrueStore(configuration: configuration, clock: time.clock)
        let issuer = "http://127.0.0.1:1/auth/v1"
        let session = try await store.signUp(
            SignUpBody(email: "saved@example.com", password: "secret-pw"), issuer: issuer, origin: "http://127.0.0.1:1")
        let enrolled = try await store.enrollFactor(
            EnrollFactorBody(factorType: "totp"), bearer: session["access_token"]?.stringValue, host: "127.0.0.1")
        let factor = try #require(enrolled["id"]?.stringValue)
        let secret = try #require(enrolled["totp"]?["secret"]?.stringValue)
        let totp = try #require(TOTP(base32: secret))
        let challenge = try await store.challengeFactor(factor, bearer: session["access_token"]?.stringValue)
        let now = Date(timeIntervalSince1970: TimeInterval(time.clock.milliseconds()) / 1000)
        let raised = try await store.verifyFactor(
            factor, VerifyFactorBody(challengeId: challenge["id"]?.stringValue, code: totp.code(at: now)),
            bearer: session["access_token"]?.stringValue, issuer: issuer)
        let saved = try JSONEncoder().encode(await store.exportSnapshot())
        let restored = GoTrueStore(configuration: configuration, clock: time.clock)
        await restored.importSnapshot(try JSONDecoder().decode(GoTrueSnapshot.self, from: saved))
        let refreshed = try await restored.refreshGrant(
            RefreshGrantBody(refreshToken: raised["refresh_token"]?.stringValue), issuer: issuer)
        #expect(SupabaseTestEmulator.claims(refreshed["access_token"])["aal"] == "aal2")
        #expect(refreshed["user"]?["factors"]?.arrayValue?.first?["status"] == "verified")
    }
}
