import Foundation
import SesameEmulatorTesting
import SesameLocalAPI
import Testing

@testable import SesameEmulator

/// Recent-login checks, verify-before-change email changes and password resets on the Auth port
/// (docs/emulator.md, "Second factors and account security").
@Suite("Auth port: account security")
struct AccountSecurityTests {
    @Test func oldSignInsAreRefusedForSensitiveCallsWhenRecentLoginSecondsIsSet() async throws {
        try await TestEmulator.with(recentLoginSeconds: 300) { emu in
            let user = try await emu.signUp(email: "old@example.com")
            let token = user["idToken"]!
            emu.time.advance(seconds: 301)
            let calls: [(String, JSONValue)] = [
                ("accounts:update", ["idToken": token, "password": "n3w-secret"]),
                ("accounts:update", ["idToken": token, "email": "other@example.com"]),
                (
                    "accounts:sendOobCode",
                    ["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": token, "newEmail": "n@example.com"]
                ),
                ("accounts:delete", ["idToken": token]),
            ]
            for (operation, body) in calls {
                #expect(
                    try await emu.auth(operation, body).errorMessage == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN", "\(operation)"
                )
            }
            // Profile changes are not sensitive; a fresh sign-in makes the rest succeed.
            #expect(try await emu.auth("accounts:update", ["idToken": token, "displayName": "Old"]).status == 200)
            let fresh = try await emu.auth(
                "accounts:signInWithPassword", ["email": "old@example.com", "password": "secret-pw"])
            let changed = try await emu.auth(
                "accounts:update", ["idToken": fresh.json["idToken"]!, "password": "n3w-secret"])
            #expect(changed.status == 200 && changed.json["refreshToken"] != nil)
        }
    }

    @Test func recentLoginSecondsZeroNeverRefuses() async throws {
        try await TestEmulator.with { emu in
            let user = try await emu.signUp(email: "never@example.com")
            emu.time.advance(seconds: 86_400)
            #expect(
                try await emu.auth("accounts:update", ["idToken": user["idToken"]!, "password": "n3w-secret"]).status
                    == 200)
        }
    }

    @Test func anAppliedEmailChangeMovesTheAddressAndEndsOlderSessions() async throws {
        try await TestEmulator.with { emu in
            let user = try await emu.signUp(email: "move@example.com")
            _ = try await emu.signUp(email: "taken@example.com")
            let taken = try await emu.auth(
                "accounts:sendOobCode",
                [
                    "requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": user["idToken"]!,
                    "newEmail": "taken@example.com",
                ])
            #expect(taken.errorMessage == "EMAIL_EXISTS")
            let sent = try await emu.auth(
                "accounts:sendOobCode",
                [
                    "requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": user["idToken"]!,
                    "newEmail": "Moved@Example.com",
                ])
            #expect(sent.status == 200)
            let listing = try await emu.request("GET", "\(emu.authBase)/emulator/v1/projects/demo-project/oobCodes")
            let record = try #require(
                listing.json["oobCodes"]?.arrayValue?.last { $0["requestType"] == "VERIFY_AND_CHANGE_EMAIL" })
            #expect(record["newEmail"] == "moved@example.com" && record["email"] == "move@example.com")
            // Nothing changes until the link is applied.
            let before = try await emu.auth("accounts:lookup", ["idToken": user["idToken"]!])
            #expect(before.json["users"]?.arrayValue?.first?["email"] == "move@example.com")
            emu.time.advance(seconds: 2)
            let applied = try await emu.auth("accounts:update", ["oobCode": record["oobCode"]!])
            #expect(applied.status == 200 && applied.json["email"] == "moved@example.com")
            // Identity Platform ends the sessions issued before the change: the ID token and the
            // refresh token are refused; signing in with the new address works.
            #expect(
                try await emu.auth("accounts:lookup", ["idToken": user["idToken"]!]).errorMessage == "TOKEN_EXPIRED")
            #expect(try await emu.refresh(user["refreshToken"]!.stringValue!).errorMessage == "TOKEN_EXPIRED")
            let again = try await emu.auth(
                "accounts:signInWithPassword", ["email": "moved@example.com", "password": "secret-pw"])
            #expect(again.status == 200)
            #expect(try await emu.refresh(again.json["refreshToken"]!.stringValue!).status == 200)
        }
    }

    @Test func aPasswordResetCodeSetsTheNewPasswordOnceAndEndsOlderSessions() async throws {
        try await TestEmulator.with { emu in
            let user = try await emu.signUp(email: "reset@example.com")
            _ = try await emu.auth(
                "accounts:sendOobCode", ["requestType": "PASSWORD_RESET", "email": "reset@example.com"])
            let code = try #require(try await emu.oobCode(for: "reset@example.com", type: "PASSWORD_RESET"))
            let weak = try await emu.auth("accounts:resetPassword", ["oobCode": .string(code), "newPassword": "x"])
            #expect(weak.errorMessage == "WEAK_PASSWORD : Password should be at least 6 characters")
            emu.time.advance(seconds: 1)
            let reset = try await emu.auth(
                "accounts:resetPassword", ["oobCode": .string(code), "newPassword": "n3w-secret"])
            #expect(reset.status == 200 && reset.json["email"] == "reset@example.com")
            let replay = try await emu.auth(
                "accounts:resetPassword", ["oobCode": .string(code), "newPassword": "n3w-secret"])
            #expect(replay.errorMessage == "INVALID_OOB_CODE")
            let signIn = try await emu.auth(
                "accounts:signInWithPassword", ["email": "reset@example.com", "password": "n3w-secret"])
            #expect(signIn.status == 200)
            // Identity Platform signs every session out on a reset.
            #expect(try await emu.refresh(user["refreshToken"]!.stringValue!).errorMessage == "TOKEN_EXPIRED")
            #expect(try await emu.refresh(signIn.json["refreshToken"]!.stringValue!).status == 200)
        }
    }
}
