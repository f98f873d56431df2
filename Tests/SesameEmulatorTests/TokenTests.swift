import SesameEmulatorTesting
import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("Secure Token refresh and revocation")
struct TokenTests {
    @Test func refreshAnswersInSnakeCaseAndKeepsTheProvider() async throws {
        try await TestEmulator.with { emu in
            let anon = try await emu.signUpAnonymously()
            let refresh = try await emu.refresh(try #require(anon["refreshToken"]?.stringValue))
            #expect(refresh.status == 200)
            #expect(refresh.json["token_type"] == "Bearer")
            #expect(refresh.json["expires_in"] == "3600")
            #expect(refresh.json["project_id"] == "12345")
            #expect(refresh.json["user_id"] == anon["localId"])
            #expect(refresh.json["access_token"] == refresh.json["id_token"])
            #expect(refresh.json["refresh_token"] != nil)
            #expect(TestEmulator.claims(refresh.json["id_token"])["firebase"]?["sign_in_provider"] == "anonymous")
        }
    }

    @Test func refreshAcceptsJSONBodies() async throws {
        try await TestEmulator.with { emu in
            let anon = try await emu.signUpAnonymously()
            for body: JSONValue in [
                ["grant_type": "refresh_token", "refresh_token": anon["refreshToken"]!],
                ["grantType": "refresh_token", "refreshToken": anon["refreshToken"]!],
            ] {
                let answer = try await emu.request(
                    "POST", "\(emu.authBase)/securetoken.googleapis.com/v1/token?key=k", body: body.serialized(),
                    headers: [("Content-Type", "application/json")])
                #expect(answer.status == 200)
                #expect(answer.json["user_id"] == anon["localId"])
            }
        }
    }

    @Test func refreshErrors() async throws {
        try await TestEmulator.with { emu in
            let anon = try await emu.signUpAnonymously()
            let url = "\(emu.authBase)/securetoken.googleapis.com/v1/token?key=k"
            let form = [("Content-Type", "application/x-www-form-urlencoded")]
            let cases: [(String, String)] = [
                ("refresh_token=x", "MISSING_GRANT_TYPE"),
                ("grant_type=password&refresh_token=x", "INVALID_GRANT_TYPE"),
                ("grant_type=refresh_token", "MISSING_REFRESH_TOKEN"),
                ("grant_type=refresh_token&refresh_token=garbage", "INVALID_REFRESH_TOKEN"),
            ]
            for (body, message) in cases {
                let answer = try await emu.request("POST", url, body: Array(body.utf8), headers: form)
                #expect(answer.status == 400)
                #expect(answer.errorMessage == message, "\(body)")
            }
            let noKey = try await emu.request(
                "POST", "\(emu.authBase)/securetoken.googleapis.com/v1/token",
                body: Array("grant_type=refresh_token".utf8), headers: form)
            #expect(noKey.status == 403)
            let deleted = try await emu.auth("accounts:delete", ["idToken": anon["idToken"]!])
            #expect(deleted.json["kind"] == "identitytoolkit#DeleteAccountResponse")
            let afterDelete = try await emu.refresh(try #require(anon["refreshToken"]?.stringValue))
            #expect(afterDelete.errorMessage == "INVALID_REFRESH_TOKEN")
            #expect(
                try await emu.auth("accounts:lookup", ["idToken": anon["idToken"]!]).errorMessage == "USER_NOT_FOUND")
        }
    }

    @Test func revocationThroughValidSinceIsSecondGranular() async throws {
        try await TestEmulator.with { emu in
            let user = try await emu.signUp(email: "revoke@example.com")
            let uid = try #require(user["localId"]?.stringValue)
            let iat = try #require(TestEmulator.claims(user["idToken"])["iat"]?.intValue)

            // Same second: still valid.
            #expect(
                try await emu.admin("accounts:update", ["localId": .string(uid), "validSince": .string(String(iat))])
                    .status == 200)
            #expect(try await emu.auth("accounts:lookup", ["idToken": user["idToken"]!]).status == 200)

            // One second later: revoked; the refresh token still works and mints a valid token.
            #expect(
                try await emu.admin(
                    "accounts:update", ["localId": .string(uid), "validSince": .string(String(iat + 1))]
                ).status == 200)
            let revoked = try await emu.auth("accounts:lookup", ["idToken": user["idToken"]!])
            #expect(revoked.errorMessage == "TOKEN_EXPIRED")
            emu.time.advance(seconds: 1)
            let refreshed = try await emu.refresh(try #require(user["refreshToken"]?.stringValue))
            #expect(refreshed.status == 200)
            #expect(try await emu.auth("accounts:lookup", ["idToken": refreshed.json["id_token"]!]).status == 200)
        }
    }

    @Test func passwordChangeRevokesEarlierTokensButNotSameSecondOnes() async throws {
        try await TestEmulator.with { emu in
            let user = try await emu.signUp(email: "change@example.com")
            let sameSecond = try await emu.auth(
                "accounts:update", ["idToken": user["idToken"]!, "password": "another-pw"])
            #expect(sameSecond.status == 200)
            #expect(sameSecond.json["idToken"] != nil)
            #expect(try await emu.auth("accounts:lookup", ["idToken": user["idToken"]!]).status == 200)
            emu.time.advance(seconds: 2)
            let later = try await emu.auth(
                "accounts:update", ["idToken": sameSecond.json["idToken"]!, "password": "third-pw-x"])
            #expect(later.status == 200)
            #expect(
                try await emu.auth("accounts:lookup", ["idToken": sameSecond.json["idToken"]!]).errorMessage
                    == "TOKEN_EXPIRED")
            #expect(try await emu.auth("accounts:lookup", ["idToken": later.json["idToken"]!]).status == 200)
        }
    }

    @Test func expiryIsNotChecked() async throws {
        try await TestEmulator.with { emu in
            let user = try await emu.signUpAnonymously()
            emu.time.advance(seconds: 7200)
            #expect(try await emu.auth("accounts:lookup", ["idToken": user["idToken"]!]).status == 200)
        }
    }
}
