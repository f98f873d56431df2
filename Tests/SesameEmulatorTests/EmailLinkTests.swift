import SesameEmulatorTesting
import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("Email links and other out-of-band codes")
struct EmailLinkTests {
    @Test func emailLinkSignInCreatesAnAccountOnce() async throws {
        try await TestEmulator.with { emu in
            let code = try await emu.sendSignInLink(to: "New@Example.com")
            let listing = try await emu.request("GET", "\(emu.authBase)/emulator/v1/projects/demo-project/oobCodes")
            let record = try #require(listing.json["oobCodes"]?.arrayValue?.last)
            #expect(code.count == 54)
            let link = try #require(record["oobLink"]?.stringValue)
            #expect(
                link.hasPrefix(
                    "http://127.0.0.1:\(emu.emulator.authPort)/emulator/action?mode=signIn&lang=en&oobCode=\(code)&apiKey=fake-api-key&continueUrl=https%3A%2F%2Fapp.example%2Ffinish"
                ))
            let first = try await emu.auth(
                "accounts:signInWithEmailLink", ["email": "new@example.com", "oobCode": .string(code)])
            #expect(first.status == 200)
            #expect(first.json["isNewUser"] == true)
            #expect(first.json["email"] == "new@example.com")
            #expect(TestEmulator.claims(first.json["idToken"])["firebase"]?["sign_in_provider"] == "password")
            let reused = try await emu.auth(
                "accounts:signInWithEmailLink", ["email": "new@example.com", "oobCode": .string(code)])
            #expect(reused.errorMessage == "INVALID_OOB_CODE")
            let second = try await emu.auth(
                "accounts:signInWithEmailLink",
                ["email": "new@example.com", "oobCode": .string(try await emu.sendSignInLink(to: "new@example.com"))])
            #expect(second.json["isNewUser"] == false)
            #expect(second.json["localId"] == first.json["localId"])
        }
    }

    @Test func emailLinkErrors() async throws {
        try await TestEmulator.with { emu in
            let code = try await emu.sendSignInLink(to: "a@example.com")
            let mismatch = try await emu.auth(
                "accounts:signInWithEmailLink", ["email": "b@example.com", "oobCode": .string(code)])
            #expect(
                mismatch.errorMessage == "INVALID_EMAIL : The email provided does not match the sign-in email address.")
            // A mismatch does not burn the code.
            let ok = try await emu.auth(
                "accounts:signInWithEmailLink", ["email": "a@example.com", "oobCode": .string(code)])
            #expect(ok.status == 200)
            #expect(
                try await emu.auth("accounts:signInWithEmailLink", ["oobCode": "x"]).errorMessage == "MISSING_EMAIL")
            #expect(
                try await emu.auth("accounts:signInWithEmailLink", ["email": "a@example.com"]).errorMessage
                    == "MISSING_OOB_CODE")
            #expect(
                try await emu.auth("accounts:signInWithEmailLink", ["email": "a@example.com", "oobCode": "nope"])
                    .errorMessage == "INVALID_OOB_CODE")
            let noType = try await emu.auth("accounts:sendOobCode", ["email": "a@example.com"])
            #expect(noType.errorMessage == "MISSING_REQ_TYPE")
            let relative = try await emu.auth(
                "accounts:sendOobCode",
                ["requestType": "EMAIL_SIGNIN", "email": "a@example.com", "continueUrl": "/relative"])
            #expect(
                relative.errorMessage
                    == "INVALID_CONTINUE_URI : ((expected an absolute URI with valid scheme and host))")
            let link = try await emu.auth(
                "accounts:sendOobCode",
                ["requestType": "EMAIL_SIGNIN", "email": "a@example.com", "returnOobLink": true])
            #expect(link.errorMessage == "INSUFFICIENT_PERMISSION")
            let bogus = try await emu.auth("accounts:sendOobCode", ["requestType": "BOGUS", "email": "a@example.com"])
            #expect(bogus.status == 400)
            #expect(bogus.json["error"]?["status"] == "INVALID_ARGUMENT")
            let numeric = try await emu.auth("accounts:sendOobCode", ["requestType": 6, "email": "num@example.com"])
            #expect(numeric.status == 200)
        }
    }

    @Test func passwordResetFlow() async throws {
        try await TestEmulator.with { emu in
            let created = try await emu.signUp(email: "reset@example.com", password: "old-password")
            emu.time.advance(seconds: 2)
            #expect(
                try await emu.auth(
                    "accounts:sendOobCode", ["requestType": "PASSWORD_RESET", "email": "ghost@example.com"]
                ).errorMessage == "EMAIL_NOT_FOUND")
            let sent = try await emu.auth(
                "accounts:sendOobCode", ["requestType": "PASSWORD_RESET", "email": "reset@example.com"])
            #expect(sent.status == 200)
            #expect(sent.json["email"] == "reset@example.com")
            let code = try #require(try await emu.oobCode(for: "reset@example.com", type: "PASSWORD_RESET"))
            let inspect = try await emu.auth("accounts:resetPassword", ["oobCode": .string(code)])
            #expect(inspect.json["requestType"] == "PASSWORD_RESET")
            #expect(inspect.json["email"] == "reset@example.com")
            let weak = try await emu.auth("accounts:resetPassword", ["oobCode": .string(code), "newPassword": "123"])
            #expect(weak.errorMessage == "WEAK_PASSWORD : Password should be at least 6 characters")
            let applied = try await emu.auth(
                "accounts:resetPassword", ["oobCode": .string(code), "newPassword": "new-password"])
            #expect(applied.status == 200)
            #expect(
                try await emu.auth("accounts:resetPassword", ["oobCode": .string(code)]).errorMessage
                    == "INVALID_OOB_CODE")
            let signIn = try await emu.auth(
                "accounts:signInWithPassword", ["email": "reset@example.com", "password": "new-password"])
            #expect(signIn.status == 200)
            #expect(
                try await emu.auth("accounts:lookup", ["idToken": created["idToken"]!]).errorMessage == "TOKEN_EXPIRED")
            #expect(try await emu.auth("accounts:resetPassword", [:]).errorMessage == "MISSING_OOB_CODE")
        }
    }

    @Test func verifyEmailThroughUpdateAndThroughTheActionLink() async throws {
        try await TestEmulator.with { emu in
            let created = try await emu.signUp(email: "verify@example.com")
            let sent = try await emu.auth(
                "accounts:sendOobCode", ["requestType": "VERIFY_EMAIL", "idToken": created["idToken"]!])
            #expect(sent.status == 200)
            let code = try #require(try await emu.oobCode(for: "verify@example.com", type: "VERIFY_EMAIL"))
            let applied = try await emu.auth("accounts:update", ["oobCode": .string(code)])
            #expect(applied.status == 200)
            #expect(applied.json["emailVerified"] == true)

            _ = try await emu.auth(
                "accounts:sendOobCode",
                [
                    "requestType": "VERIFY_EMAIL", "idToken": created["idToken"]!,
                    "continueUrl": "https://app.example/done",
                ])
            let second = try #require(try await emu.oobCode(for: "verify@example.com", type: "VERIFY_EMAIL"))
            let click = try await emu.request(
                "GET",
                "\(emu.authBase)/emulator/action?mode=verifyEmail&oobCode=\(second)&apiKey=k&continueUrl=https%3A%2F%2Fapp.example%2Fdone",
                client: TestEmulator.noRedirects)
            #expect(click.status == 303)
            #expect(click.header("location")?.hasPrefix("https://app.example/done?mode=verifyEmail") == true)
            #expect(try await emu.oobCode(for: "verify@example.com", type: "VERIFY_EMAIL") == nil)
            #expect(
                try await emu.auth("accounts:sendOobCode", ["requestType": "VERIFY_EMAIL"]).errorMessage
                    == "INVALID_ID_TOKEN")
        }
    }

    @Test func resetPasswordActionLinkAppliesTheCodeAndRedirects() async throws {
        try await TestEmulator.with { emu in
            _ = try await emu.signUp(email: "click-reset@example.com", password: "old-password")
            _ = try await emu.auth(
                "accounts:sendOobCode",
                [
                    "requestType": "PASSWORD_RESET", "email": "click-reset@example.com",
                    "continueUrl": "https://app.example/after",
                ])
            let code = try #require(try await emu.oobCode(for: "click-reset@example.com", type: "PASSWORD_RESET"))
            let noPassword = try await emu.request(
                "GET", "\(emu.authBase)/emulator/action?mode=resetPassword&oobCode=\(code)",
                client: TestEmulator.noRedirects)
            #expect(noPassword.status == 400)
            let click = try await emu.request(
                "GET",
                "\(emu.authBase)/emulator/action?mode=resetPassword&oobCode=\(code)&apiKey=k&newPassword=clicked-pw&continueUrl=https%3A%2F%2Fapp.example%2Fafter",
                client: TestEmulator.noRedirects)
            #expect(click.status == 303)
            #expect(click.header("location")?.hasPrefix("https://app.example/after?mode=resetPassword") == true)
            let signIn = try await emu.auth(
                "accounts:signInWithPassword", ["email": "click-reset@example.com", "password": "clicked-pw"])
            #expect(signIn.status == 200)
            let again = try await emu.request(
                "GET", "\(emu.authBase)/emulator/action?mode=resetPassword&oobCode=\(code)&newPassword=other-pw",
                client: TestEmulator.noRedirects)
            #expect(again.status == 400)
            #expect(again.json["authEmulator"]?["error"] == "INVALID_OOB_CODE")
        }
    }

    @Test func signInActionLinkRedirectsWithTheCode() async throws {
        try await TestEmulator.with { emu in
            let code = try await emu.sendSignInLink(to: "click@example.com")
            let url =
                "\(emu.authBase)/emulator/action?mode=signIn&lang=en&oobCode=\(code)&apiKey=fake-api-key&continueUrl=https%3A%2F%2Fapp.example%2Ffinish%3Fx%3D1"
            let click = try await emu.request("GET", url, client: TestEmulator.noRedirects)
            #expect(click.status == 303)
            #expect(
                click.header("location")
                    == "https://app.example/finish?x=1&mode=signIn&lang=en&oobCode=\(code)&apiKey=fake-api-key")
            let missing = try await emu.request(
                "GET", "\(emu.authBase)/emulator/action?mode=signIn&oobCode=\(code)", client: TestEmulator.noRedirects)
            #expect(missing.status == 400)
            #expect(missing.json["authEmulator"]?["error"] != nil)
            // Clicking does not consume the code.
            #expect(try await emu.oobCode(for: "click@example.com") == code)
        }
    }

    @Test func createAuthUriListsSignInMethods() async throws {
        try await TestEmulator.with { emu in
            _ = try await emu.signUp(email: "methods@example.com")
            let answer = try await emu.auth(
                "accounts:createAuthUri", ["identifier": "methods@example.com", "continueUri": "http://localhost"])
            #expect(answer.json["registered"] == true)
            #expect(answer.json["signinMethods"] == ["password"])
            #expect(answer.json["allProviders"] == ["password"])
            let unknown = try await emu.auth(
                "accounts:createAuthUri", ["identifier": "none@example.com", "continueUri": "http://localhost"])
            #expect(unknown.json["registered"] == false)
            #expect(unknown.json["signinMethods"] == [])
            #expect(
                try await emu.auth("accounts:createAuthUri", ["continueUri": "http://localhost"]).errorMessage
                    == "MISSING_IDENTIFIER")
            #expect(
                try await emu.auth("accounts:createAuthUri", ["identifier": "a@b.c"]).errorMessage
                    == "MISSING_CONTINUE_URI")
            #expect(
                try await emu.auth("accounts:createAuthUri", ["identifier": "nope", "continueUri": "http://localhost"])
                    .errorMessage == "INVALID_IDENTIFIER")
        }
    }
}
