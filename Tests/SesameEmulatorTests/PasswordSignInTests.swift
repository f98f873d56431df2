import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("accounts:signInWithPassword")
struct PasswordSignInTests {
    @Test func signsInAndReportsErrors() async throws {
        try await TestEmulator.with { emu in
            let created = try await emu.signUp(email: "bob@example.com", password: "right-pw")
            let ok = try await emu.auth(
                "accounts:signInWithPassword", ["email": "BOB@example.com", "password": "right-pw"])
            #expect(ok.status == 200)
            #expect(ok.json["kind"] == "identitytoolkit#VerifyPasswordResponse")
            #expect(ok.json["registered"] == true)
            #expect(ok.json["localId"] == created["localId"])
            #expect(ok.json["email"] == "bob@example.com")
            #expect(TestEmulator.claims(ok.json["idToken"])["firebase"]?["sign_in_provider"] == "password")

            let cases: [(JSONValue, String)] = [
                (["email": "nobody@example.com", "password": "whatever"], "EMAIL_NOT_FOUND"),
                (["email": "bob@example.com", "password": "wrong-pw"], "INVALID_PASSWORD"),
                (["password": "whatever"], "MISSING_EMAIL"),
                (["email": "", "password": "whatever"], "INVALID_EMAIL"),
                (["email": "bob@example.com"], "MISSING_PASSWORD"),
            ]
            for (body, message) in cases {
                let answer = try await emu.auth("accounts:signInWithPassword", body)
                #expect(answer.status == 400)
                #expect(answer.errorMessage == message, "\(body.jsonString)")
            }
        }
    }

    @Test func emailEnumerationProtectionHidesWhichPartIsWrong() async throws {
        try await TestEmulator.with { emu in
            _ = try await emu.signUp(email: "carol@example.com")
            let patch = try await emu.request(
                "PATCH", "\(emu.authBase)/emulator/v1/projects/demo-project/config",
                body: (["emailPrivacyConfig": ["enableImprovedEmailPrivacy": true]] as JSONValue).serialized())
            #expect(patch.json["emailPrivacyConfig"]?["enableImprovedEmailPrivacy"] == true)
            let unknown = try await emu.auth(
                "accounts:signInWithPassword", ["email": "nobody@example.com", "password": "whatever"])
            #expect(unknown.errorMessage == "INVALID_LOGIN_CREDENTIALS")
            let wrong = try await emu.auth(
                "accounts:signInWithPassword", ["email": "carol@example.com", "password": "wrong-pw"])
            #expect(wrong.errorMessage == "INVALID_LOGIN_CREDENTIALS")
            let reset = try await emu.auth(
                "accounts:sendOobCode", ["requestType": "PASSWORD_RESET", "email": "nobody@example.com"])
            #expect(reset.status == 200)
            #expect(reset.json["email"] == "nobody@example.com")
            let methods = try await emu.auth(
                "accounts:createAuthUri", ["identifier": "carol@example.com", "continueUri": "http://localhost"])
            #expect(methods.json["registered"] == nil)
            #expect(methods.json["signinMethods"] == nil)
            #expect(methods.json["sessionId"] != nil)
        }
    }

    @Test func disabledUserCannotSignIn() async throws {
        try await TestEmulator.with { emu in
            let created = try await emu.signUp(email: "dan@example.com")
            let disable = try await emu.admin("accounts:update", ["localId": created["localId"]!, "disableUser": true])
            #expect(disable.status == 200)
            let answer = try await emu.auth(
                "accounts:signInWithPassword", ["email": "dan@example.com", "password": "secret-pw"])
            #expect(answer.errorMessage == "USER_DISABLED")
            let refresh = try await emu.refresh(try #require(created["refreshToken"]?.stringValue))
            #expect(refresh.errorMessage == "USER_DISABLED")
            let lookup = try await emu.auth("accounts:lookup", ["idToken": created["idToken"]!])
            #expect(lookup.errorMessage == "USER_DISABLED")
        }
    }
}
