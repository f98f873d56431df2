import Foundation
import SesameEmulatorTesting
import SesameLocalAPI
import Testing

@testable import SesameEmulator

/// Identity Platform's TOTP second factors on the Auth port (docs/emulator.md, "Second factors
/// and account security"). Codes are computed from the shared secret at the emulator's clock.
@Suite("Auth port: TOTP second factors")
struct SecondFactorTests {
    /// `POST /identitytoolkit.googleapis.com/v2/accounts/<operation>?key=…`.
    static func v2(_ emu: TestEmulator, _ operation: String, _ body: JSONValue) async throws -> HTTPAnswer {
        try await emu.request(
            "POST", "\(emu.authBase)/identitytoolkit.googleapis.com/v2/accounts/\(operation)?key=fake-api-key",
            body: body.serialized(), headers: [("Content-Type", "application/json")])
    }

    /// The code of `secret` at the emulator's clock, shifted by `steps` periods.
    static func code(_ emu: TestEmulator, _ secret: String, steps: Int = 0) throws -> String {
        let now = Double(emu.time.clock.milliseconds()) / 1000 + Double(steps) * TOTP.period
        return try #require(TOTP(base32: secret)).code(at: Date(timeIntervalSince1970: now))
    }

    /// A verified email/password account with one TOTP factor: its tokens, factor id and secret.
    static func enrolledAccount(
        _ emu: TestEmulator, email: String
    ) async throws -> (tokens: JSONValue, factorId: String, secret: String) {
        let user = try await emu.signUp(email: email)
        _ = try await emu.admin("accounts:update", ["localId": user["localId"]!, "emailVerified": true])
        let started = try await v2(
            emu, "mfaEnrollment:start", ["idToken": user["idToken"]!, "totpEnrollmentInfo": [:]])
        let info = try #require(started.json["totpSessionInfo"])
        let secret = try #require(info["sharedSecretKey"]?.stringValue)
        let current = try code(emu, secret)
        let finalized = try await v2(
            emu, "mfaEnrollment:finalize",
            [
                "idToken": user["idToken"]!, "displayName": "Phone",
                "totpVerificationInfo": ["sessionInfo": info["sessionInfo"]!, "verificationCode": .string(current)],
            ])
        #expect(finalized.status == 200, "\(finalized.json.jsonString)")
        let lookup = try await emu.auth("accounts:lookup", ["idToken": finalized.json["idToken"]!])
        let factorId = try #require(lookup.json["users"]?[0]?["mfaInfo"]?[0]?["mfaEnrollmentId"]?.stringValue)
        return (finalized.json, factorId, secret)
    }

    @Test func enrolmentNeedsAVerifiedEmailAndAValidCurrentCode() async throws {
        try await TestEmulator.with { emu in
            let user = try await emu.signUp(email: "enrol@example.com")
            let start: JSONValue = ["idToken": user["idToken"]!, "totpEnrollmentInfo": [:]]
            let unverified = try await Self.v2(emu, "mfaEnrollment:start", start)
            #expect(
                unverified.errorMessage
                    == "UNVERIFIED_EMAIL : Need to verify email first before enrolling second factors.")
            _ = try await emu.admin("accounts:update", ["localId": user["localId"]!, "emailVerified": true])
            let started = try await Self.v2(emu, "mfaEnrollment:start", start)
            let info = try #require(started.json["totpSessionInfo"])
            #expect(
                info["verificationCodeLength"] == 6 && info["hashingAlgorithm"] == "SHA1" && info["periodSec"] == 30)
            let secret = try #require(info["sharedSecretKey"]?.stringValue)
            #expect(TOTP(base32: secret) != nil && info["finalizeEnrollmentTime"]?.stringValue != nil)
            func finalize(_ code: String) async throws -> HTTPAnswer {
                try await Self.v2(
                    emu, "mfaEnrollment:finalize",
                    [
                        "idToken": user["idToken"]!,
                        "totpVerificationInfo": [
                            "sessionInfo": info["sessionInfo"]!, "verificationCode": .string(code),
                        ],
                    ])
            }
            let right = try Self.code(emu, secret)
            let wrong = String(right.reversed()) == right ? "000001" : String(right.reversed())
            #expect(try await finalize(wrong).errorMessage == "INVALID_CODE")
            #expect(try await finalize(String(right.prefix(5))).errorMessage == "INVALID_CODE")
            #expect(try await finalize("12a456").errorMessage == "INVALID_CODE")
            // A code of the next step is accepted (±1 step).
            let next = try Self.code(emu, secret, steps: 1)
            let done = try await finalize(next)
            #expect(done.status == 200 && done.json["expiresIn"] == nil)
            let claims = TestEmulator.claims(done.json["idToken"])
            #expect(claims["firebase"]?["sign_in_second_factor"] == "totp")
            let lookup = try await emu.auth("accounts:lookup", ["idToken": done.json["idToken"]!])
            let entry = try #require(lookup.json["users"]?[0]?["mfaInfo"]?[0])
            #expect(claims["firebase"]?["second_factor_identifier"] == entry["mfaEnrollmentId"])
            #expect(entry["totpInfo"] == .object([:]) && entry["enrolledAt"]?.stringValue != nil)
            #expect(!lookup.json.jsonString.contains(secret))
            // The session is spent.
            #expect(try await finalize(right).errorMessage == "INVALID_SESSION_INFO")
        }
    }

    @Test func signInWithAFactorAnswersAPendingCredentialThatACurrentCodeFinishes() async throws {
        try await TestEmulator.with { emu in
            let (_, factorId, secret) = try await Self.enrolledAccount(emu, email: "two@example.com")
            let first = try await emu.auth(
                "accounts:signInWithPassword",
                ["email": "two@example.com", "password": "secret-pw", "returnSecureToken": true])
            #expect(first.status == 200 && first.json["idToken"] == nil && first.json["refreshToken"] == nil)
            let credential = try #require(first.json["mfaPendingCredential"])
            #expect(first.json["mfaInfo"]?[0]?["mfaEnrollmentId"] == .string(factorId))
            func finish(_ code: String, _ credential: JSONValue = credential) async throws -> HTTPAnswer {
                try await Self.v2(
                    emu, "mfaSignIn:finalize",
                    [
                        "mfaPendingCredential": credential, "mfaEnrollmentId": .string(factorId),
                        "totpVerificationInfo": ["verificationCode": .string(code)],
                    ])
            }
            let stale = try Self.code(emu, secret, steps: 3)
            let current = try Self.code(emu, secret)
            #expect(try await finish(stale).errorMessage == "INVALID_CODE")
            #expect(try await finish("123").errorMessage == "INVALID_CODE")
            let done = try await finish(current)
            #expect(done.status == 200)
            let claims = TestEmulator.claims(done.json["idToken"])
            #expect(claims["firebase"]?["sign_in_provider"] == "password")
            #expect(claims["firebase"]?["second_factor_identifier"] == .string(factorId))
            // The refreshed token keeps the second factor.
            let refreshed = try await emu.refresh(try #require(done.json["refreshToken"]?.stringValue))
            #expect(TestEmulator.claims(refreshed.json["id_token"])["firebase"]?["sign_in_second_factor"] == "totp")
            #expect(try await finish(current).errorMessage == "INVALID_MFA_PENDING_CREDENTIAL")
            #expect(try await finish(current, "forged").errorMessage == "INVALID_MFA_PENDING_CREDENTIAL")

            // A pending credential lasts five minutes.
            let again = try await emu.auth(
                "accounts:signInWithPassword", ["email": "two@example.com", "password": "secret-pw"])
            emu.time.advance(seconds: 301)
            let later = try Self.code(emu, secret)
            #expect(
                try await finish(later, again.json["mfaPendingCredential"]!).errorMessage
                    == "INVALID_MFA_PENDING_CREDENTIAL")
        }
    }

    @Test func emailLinkAndIdpSignInsAskForTheFactorButCustomTokensDoNot() async throws {
        try await TestEmulator.with { emu in
            let (tokens, _, _) = try await Self.enrolledAccount(emu, email: "ways@example.com")
            let code = try await emu.sendSignInLink(to: "ways@example.com")
            let link = try await emu.auth(
                "accounts:signInWithEmailLink", ["email": "ways@example.com", "oobCode": .string(code)])
            #expect(link.json["mfaPendingCredential"]?.stringValue != nil && link.json["idToken"] == nil)

            let claims: JSONValue = ["sub": "g-ways", "email": "ways@example.com", "email_verified": true]
            let linked = try await emu.auth(
                "accounts:signInWithIdp",
                [
                    "idToken": tokens["idToken"]!, "requestUri": "http://localhost",
                    "postBody": .string(TestEmulator.idpPostBody(claims)), "returnSecureToken": true,
                ])
            #expect(linked.status == 200 && linked.json["idToken"] != nil, "linking is no sign-in")
            let idp = try await emu.auth(
                "accounts:signInWithIdp",
                [
                    "requestUri": "http://localhost", "postBody": .string(TestEmulator.idpPostBody(claims)),
                    "returnSecureToken": true,
                ])
            #expect(idp.json["mfaPendingCredential"]?.stringValue != nil && idp.json["idToken"] == nil)

            let uid = TestEmulator.claims(tokens["idToken"])["user_id"]!
            let custom = try await emu.auth(
                "accounts:signInWithCustomToken", ["token": .string(JSONValue.object(["uid": uid]).jsonString)])
            #expect(custom.json["idToken"] != nil && custom.json["mfaPendingCredential"] == nil)
        }
    }

    @Test func withdrawingTheFactorEndsTheChallenge() async throws {
        try await TestEmulator.with { emu in
            let (tokens, factorId, _) = try await Self.enrolledAccount(emu, email: "drop@example.com")
            let unknown = try await Self.v2(
                emu, "mfaEnrollment:withdraw", ["idToken": tokens["idToken"]!, "mfaEnrollmentId": "nope"])
            #expect(unknown.errorMessage == "MFA_ENROLLMENT_NOT_FOUND")
            let withdrawn = try await Self.v2(
                emu, "mfaEnrollment:withdraw", ["idToken": tokens["idToken"]!, "mfaEnrollmentId": .string(factorId)])
            #expect(withdrawn.status == 200 && withdrawn.json["idToken"] != nil)
            let lookup = try await emu.auth("accounts:lookup", ["idToken": withdrawn.json["idToken"]!])
            #expect(lookup.json["users"]?[0]?["mfaInfo"] == nil)
            let signIn = try await emu.auth(
                "accounts:signInWithPassword", ["email": "drop@example.com", "password": "secret-pw"])
            #expect(signIn.json["idToken"] != nil && signIn.json["mfaPendingCredential"] == nil)
        }
    }

    @Test func enrolledFactorsSurviveAnExportAndImport() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mfa-export-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var secret = ""
        var factorId = ""
        try await TestEmulator.with { emu in
            (_, factorId, secret) = try await Self.enrolledAccount(emu, email: "kept@example.com")
            try await emu.emulator.export(to: directory)
        }
        try await TestEmulator.with(importDirectory: directory) { emu in
            let first = try await emu.auth(
                "accounts:signInWithPassword", ["email": "kept@example.com", "password": "secret-pw"])
            let current = try Self.code(emu, secret)
            let done = try await Self.v2(
                emu, "mfaSignIn:finalize",
                [
                    "mfaPendingCredential": first.json["mfaPendingCredential"]!, "mfaEnrollmentId": .string(factorId),
                    "totpVerificationInfo": ["verificationCode": .string(current)],
                ])
            #expect(done.status == 200)
        }
    }
}

extension JSONValue {
    /// The element at `index` of an array; nil otherwise.
    fileprivate subscript(index: Int) -> JSONValue? {
        guard let array = arrayValue, array.indices.contains(index) else { return nil }
        return array[index]
    }
}
