import SesameCore
import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("accounts:signUp and tokens")
struct SignUpTests {
    @Test func anonymousSignUpIssuesUnsignedTokens() async throws {
        try await TestEmulator.with { emu in
            let answer = try await emu.signUpAnonymously()
            let uid = try #require(answer["localId"]?.stringValue)
            #expect(uid.count == 28 && uid.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
            #expect(answer["kind"] == "identitytoolkit#SignupNewUserResponse")
            #expect(answer["expiresIn"] == "3600")
            #expect(answer["email"] == nil)
            let idToken = try #require(answer["idToken"]?.stringValue)
            #expect(idToken.hasSuffix("."))
            let (header, _) = try #require(TokenFactory.decodeJWT(idToken))
            #expect(header["alg"] == "none")
            let claims = TestEmulator.claims(answer["idToken"])
            #expect(claims["iss"] == "https://securetoken.google.com/demo-project")
            #expect(claims["aud"] == "demo-project")
            #expect(claims["sub"]?.stringValue == uid)
            #expect(claims["user_id"]?.stringValue == uid)
            #expect(claims["provider_id"] == "anonymous")
            #expect(claims["firebase"]?["sign_in_provider"] == "anonymous")
            #expect(claims["firebase"]?["identities"] == .object([:]))
            let iat = try #require(claims["iat"]?.intValue)
            #expect(claims["exp"]?.intValue == iat + 3600)
            #expect(claims["email"] == nil)
            let refresh = try #require(answer["refreshToken"]?.stringValue)
            let decoded = try JSONCoding.parse(try #require(Base64URL.decode(refresh)))
            #expect(decoded["_AuthEmulatorRefreshToken"] == "DO NOT MODIFY")
            #expect(decoded["localId"]?.stringValue == uid)
            #expect(decoded["provider"] == "anonymous")
        }
    }

    @Test func emailPasswordSignUpLowerCasesEmail() async throws {
        try await TestEmulator.with { emu in
            let answer = try await emu.auth(
                "accounts:signUp", ["email": "Alice@Example.COM", "password": "secret-pw", "displayName": "Alice"])
            #expect(answer.status == 200)
            #expect(answer.json["email"] == "alice@example.com")
            #expect(answer.json["displayName"] == "Alice")
            let claims = TestEmulator.claims(answer.json["idToken"])
            #expect(claims["firebase"]?["sign_in_provider"] == "password")
            #expect(claims["provider_id"] == nil)
            #expect(claims["email"] == "alice@example.com")
            #expect(claims["email_verified"] == false)
            #expect(claims["name"] == "Alice")
            #expect(claims["firebase"]?["identities"]?["email"] == ["alice@example.com"])
        }
    }

    @Test func signUpErrors() async throws {
        try await TestEmulator.with { emu in
            _ = try await emu.signUp(email: "taken@example.com")
            let cases: [(JSONValue, String)] = [
                (["email": "TAKEN@example.com", "password": "secret-pw"], "EMAIL_EXISTS"),
                (
                    ["email": "new@example.com", "password": "12345"],
                    "WEAK_PASSWORD : Password should be at least 6 characters"
                ),
                (["email": "not-an-email", "password": "secret-pw"], "INVALID_EMAIL"),
                (["email": "", "password": ""], "INVALID_EMAIL"),
                (["email": "new@example.com"], "MISSING_PASSWORD"),
                (["password": "secret-pw"], "MISSING_EMAIL"),
                (["localId": "abc"], "UNEXPECTED_PARAMETER : User ID"),
                (["idToken": "garbage", "email": "x@example.com", "password": "secret-pw"], "INVALID_ID_TOKEN"),
            ]
            for (body, message) in cases {
                let answer = try await emu.auth("accounts:signUp", body)
                #expect(answer.status == 400, "\(body.jsonString)")
                #expect(answer.errorMessage == message, "\(body.jsonString)")
                #expect(answer.json["error"]?["code"] == 400)
                #expect(answer.json["error"]?["errors"]?.arrayValue?.first?["message"]?.stringValue == message)
                #expect(answer.json["error"]?["status"] == nil)
            }
        }
    }

    @Test func apiKeyIsRequiredAndAnyValueWorks() async throws {
        try await TestEmulator.with { emu in
            let missing = try await emu.auth("accounts:signUp", [:], key: false)
            #expect(missing.status == 403)
            #expect(missing.errorMessage == "The request is missing a valid API key.")
            #expect(missing.json["error"]?["status"] == "PERMISSION_DENIED")
            let header = try await emu.auth(
                "accounts:signUp", [:], key: false, headers: [("x-goog-api-key", "anything")])
            #expect(header.status == 200)
        }
    }

    @Test func snakeCaseRequestKeysAreAccepted() async throws {
        try await TestEmulator.with { emu in
            let answer = try await emu.auth(
                "accounts:signUp",
                [
                    "email": "snake@example.com", "password": "secret-pw", "display_name": "Snake",
                    "return_secure_token": true,
                ])
            #expect(answer.status == 200)
            #expect(answer.json["displayName"] == "Snake")
        }
    }

    @Test func customTokenSignInCarriesClaimsThroughRefresh() async throws {
        try await TestEmulator.with { emu in
            let answer = try await emu.auth(
                "accounts:signInWithCustomToken", ["token": #"{"uid":"custom-1","claims":{"role":"admin"}}"#])
            #expect(answer.status == 200)
            #expect(answer.json["isNewUser"] == true)
            let claims = TestEmulator.claims(answer.json["idToken"])
            #expect(claims["role"] == "admin")
            #expect(claims["firebase"]?["sign_in_provider"] == "custom")
            #expect(claims["user_id"] == "custom-1")
            let refreshed = try await emu.refresh(try #require(answer.json["refreshToken"]?.stringValue))
            #expect(TestEmulator.claims(refreshed.json["id_token"])["role"] == "admin")
            let again = try await emu.auth("accounts:signInWithCustomToken", ["token": #"{"uid":"custom-1"}"#])
            #expect(again.json["isNewUser"] == false)
            let forbidden = try await emu.auth(
                "accounts:signInWithCustomToken", ["token": #"{"uid":"u","claims":{"sub":"x"}}"#])
            #expect(forbidden.errorMessage == "FORBIDDEN_CLAIM : sub")
            let missing = try await emu.auth("accounts:signInWithCustomToken", [:])
            #expect(missing.errorMessage == "MISSING_CUSTOM_TOKEN")
        }
    }
}
