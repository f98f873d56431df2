import SesameEmulatorTesting
import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("Session cookies (projects/{project}:createSessionCookie)")
struct SessionCookieTests {
    func createCookie(_ emu: TestEmulator, _ body: JSONValue, privileged: Bool = true) async throws -> HTTPAnswer {
        let url = "\(emu.authBase)/identitytoolkit.googleapis.com/v1/projects/demo-project:createSessionCookie"
        return try await emu.request(
            "POST", privileged ? url : url + "?key=fake-api-key", body: body.serialized(),
            headers: [("Content-Type", "application/json")] + (privileged ? [("Authorization", "Bearer owner")] : []))
    }

    @Test func cookieCarriesTheIdTokensClaimsWithSessionIssuerAndDuration() async throws {
        try await TestEmulator.with { emu in
            let user = try await emu.signUp(email: "cookie@example.com")
            let idToken = try #require(user["idToken"])
            emu.time.advance(seconds: 30)
            let answer = try await createCookie(emu, ["idToken": idToken, "validDuration": 3600])
            #expect(answer.status == 200)
            let cookie = try #require(answer.json["sessionCookie"]?.stringValue)
            #expect(cookie.hasSuffix("."))
            let (header, claims) = try #require(TokenFactory.decodeJWT(cookie))
            #expect(header["alg"] == "none")
            #expect(claims["iss"] == "https://session.firebase.google.com/demo-project")
            let idClaims = TestEmulator.claims(idToken)
            let iat = try #require(claims["iat"]?.intValue)
            #expect(iat == (idClaims["iat"]?.intValue ?? 0) + 30)
            #expect(claims["exp"]?.intValue == iat + 3600)
            for name in ["aud", "sub", "user_id", "email", "email_verified", "auth_time", "firebase"] {
                #expect(claims[name] == idClaims[name], "\(name)")
            }
            let asText = try await createCookie(emu, ["idToken": idToken, "validDuration": "300"])
            let short = TestEmulator.claims(asText.json["sessionCookie"])
            #expect(short["exp"]?.intValue == (short["iat"]?.intValue ?? 0) + 300)
            let longest = TestEmulator.claims(try await createCookie(emu, ["idToken": idToken]).json["sessionCookie"])
            #expect(longest["exp"]?.intValue == (longest["iat"]?.intValue ?? 0) + 14 * 24 * 3600)
        }
    }

    @Test func durationsOutsideFiveMinutesToTwoWeeksAreInvalid() async throws {
        try await TestEmulator.with { emu in
            let idToken = try #require(try await emu.signUp(email: "duration@example.com")["idToken"])
            for seconds in [299, 14 * 24 * 3600 + 1, -5] {
                let answer = try await createCookie(emu, ["idToken": idToken, "validDuration": .int(seconds)])
                #expect(answer.status == 400)
                #expect(answer.errorMessage == "INVALID_DURATION", "\(seconds)")
            }
        }
    }

    @Test func badTokensAndUnprivilegedCallersAreRefused() async throws {
        try await TestEmulator.with { emu in
            let user = try await emu.signUp(email: "refused@example.com")
            let idToken = try #require(user["idToken"])
            #expect(try await createCookie(emu, ["validDuration": 600]).errorMessage == "MISSING_ID_TOKEN")
            #expect(try await createCookie(emu, ["idToken": "not-a-jwt"]).errorMessage == "INVALID_ID_TOKEN")
            let unprivileged = try await createCookie(emu, ["idToken": idToken], privileged: false)
            #expect(unprivileged.errorMessage?.hasPrefix("INSUFFICIENT_PERMISSION") == true)
            let localId = try #require(user["localId"])
            emu.time.advance(seconds: 2)
            #expect(
                try await emu.admin(
                    "accounts:update",
                    [
                        "localId": localId,
                        "validSince": .int(
                            (TestEmulator.claims(idToken)["iat"]?.intValue ?? 0) + 1),
                    ]
                ).status == 200)
            #expect(try await createCookie(emu, ["idToken": idToken]).errorMessage == "TOKEN_EXPIRED")
            #expect(try await emu.admin("accounts:delete", ["localId": localId]).status == 200)
            #expect(try await createCookie(emu, ["idToken": idToken]).errorMessage == "USER_NOT_FOUND")
        }
    }
}
