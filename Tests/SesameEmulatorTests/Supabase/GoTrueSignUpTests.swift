import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("Supabase GoTrue: sign-up, password sign-in, settings, gateway")
struct GoTrueSignUpTests {
    @Test func anonymousSignUpGivesASessionWithGoTruesClaims() async throws {
        try await SupabaseTestEmulator.with { emu in
            let session = try await emu.anonymousSession()
            #expect(session["token_type"] == "bearer")
            #expect(session["expires_in"] == 3600)
            let refresh = try #require(session["refresh_token"]?.stringValue)
            #expect(RefreshTokenChain.isWellFormed(refresh))
            let user = try #require(session["user"])
            #expect(user["is_anonymous"] == true)
            #expect(user["identities"] == [])
            #expect(user["aud"] == "authenticated")
            #expect(user["app_metadata"]?["provider"] == nil)
            let token = try #require(session["access_token"]?.stringValue)
            let jwks = try await emu.call("GET", "/auth/v1/.well-known/jwks.json").json
            let claims = try #require(JWKSVerifier.claims(of: token, jwks: jwks))
            #expect(claims["sub"] == user["id"])
            #expect(claims["is_anonymous"] == true)
            #expect(claims["role"] == "authenticated")
            #expect(claims["aud"] == "authenticated")
            #expect(claims["aal"] == "aal1")
            #expect(claims["amr"]?.arrayValue?.first?["method"] == "anonymous")
            #expect(claims["session_id"]?.stringValue?.isEmpty == false)
            #expect(claims["exp"]?.intValue == (claims["iat"]?.intValue ?? 0) + 3600)
            #expect(claims["iss"]?.stringValue == emu.base + "/auth/v1")
            // Every call makes a new user.
            let second = try await emu.anonymousSession()
            #expect(second["user"]?["id"] != user["id"])
        }
    }

    @Test func anonymousSignUpDisabledAnswersInBothErrorShapes() async throws {
        try await SupabaseTestEmulator.with(SupabaseEmulatorConfiguration(port: 0, anonymousSignIns: false)) { emu in
            let legacy = try await emu.call("POST", "/auth/v1/signup", [:])
            #expect(legacy.status == 422)
            #expect(legacy.json["code"] == 422)
            #expect(legacy.json["error_code"] == "anonymous_provider_disabled")
            #expect(legacy.json["msg"]?.stringValue?.isEmpty == false)
            #expect(legacy.header("x-sb-error-code") == "anonymous_provider_disabled")
            #expect(legacy.header("X-Supabase-Api-Version") == nil)
            let versioned = try await emu.call("POST", "/auth/v1/signup", [:], versioned: true)
            #expect(versioned.status == 422)
            #expect(versioned.json["code"] == "anonymous_provider_disabled")
            #expect(versioned.json["message"]?.stringValue?.isEmpty == false)
            #expect(versioned.json["error_code"] == nil)
            #expect(versioned.header("X-Supabase-Api-Version") == "2024-01-01")
            #expect(try await emu.call("GET", "/auth/v1/settings").json["external"]?["anonymous_users"] == false)
        }
    }

    @Test func emailSignUpThenPasswordSignIn() async throws {
        try await SupabaseTestEmulator.with { emu in
            let session = try await emu.passwordSession("Ada@Example.com")
            let user = try #require(session["user"])
            #expect(user["email"] == "ada@example.com")
            #expect(user["email_confirmed_at"] != nil)
            #expect(user["app_metadata"]?["provider"] == "email")
            #expect(user["identities"]?.arrayValue?.first?["provider"] == "email")
            let again = try await emu.call(
                "POST", "/auth/v1/signup", ["email": "ada@example.com", "password": "another-pw"])
            #expect(again.status == 422)
            #expect(again.goTrueCode == "user_already_exists")
            let weak = try await emu.call(
                "POST", "/auth/v1/signup", ["email": "bob@example.com", "password": "abc"], versioned: true)
            #expect(weak.status == 422)
            #expect(weak.json["code"] == "weak_password")
            #expect(weak.json["weak_password"]?["reasons"] == ["length"])

            let signIn = try await emu.call(
                "POST", "/auth/v1/token?grant_type=password", ["email": "ada@example.com", "password": "secret-pw"])
            #expect(signIn.status == 200)
            #expect(signIn.json["user"]?["id"] == user["id"])
            #expect(
                SupabaseTestEmulator.claims(signIn.json["access_token"])["amr"]?.arrayValue?.first?["method"]
                    == "password")
            #expect(
                SupabaseTestEmulator.claims(signIn.json["access_token"])["session_id"]
                    != SupabaseTestEmulator.claims(session["access_token"])["session_id"])
            let wrong = try await emu.call(
                "POST", "/auth/v1/token?grant_type=password", ["email": "ada@example.com", "password": "nope-nope"])
            #expect(wrong.status == 400)
            #expect(wrong.goTrueCode == "invalid_credentials")
            let grant = try await emu.call("POST", "/auth/v1/token?grant_type=magic", [:])
            #expect(grant.status == 400)
            #expect(grant.goTrueCode == "invalid_credentials")
        }
    }

    @Test func withoutAutoconfirmSignUpMailsAConfirmationAndSignInWaitsForIt() async throws {
        try await SupabaseTestEmulator.with(SupabaseEmulatorConfiguration(port: 0, autoconfirm: false)) { emu in
            let answer = try await emu.call(
                "POST", "/auth/v1/signup", ["email": "cy@example.com", "password": "secret-pw"])
            #expect(answer.status == 200)
            #expect(answer.json["access_token"] == nil)
            #expect(answer.json["email_confirmed_at"] == nil)
            let blocked = try await emu.call(
                "POST", "/auth/v1/token?grant_type=password", ["email": "cy@example.com", "password": "secret-pw"])
            #expect(blocked.goTrueCode == "email_not_confirmed")
            let message = try #require(try await emu.messages().last)
            #expect(message["type"] == "signup")
            let verified = try await emu.call(
                "POST", "/auth/v1/verify",
                ["type": "signup", "email": "cy@example.com", "token": message["otp"] ?? .null])
            #expect(verified.status == 200)
            #expect(verified.json["user"]?["email_confirmed_at"] != nil)
            // Signing up a confirmed address again does not tell: a made-up user, no mail.
            let mails = try await emu.messages().count
            let again = try await emu.call(
                "POST", "/auth/v1/signup", ["email": "cy@example.com", "password": "other-pw"])
            #expect(again.status == 200)
            #expect(again.json["id"] != verified.json["user"]?["id"])
            #expect(again.json["identities"] == [])
            #expect(try await emu.messages().count == mails)
        }
    }

    @Test func theGatewayWantsAnAPIKeyButVerifyAndEmulatorPathsDoNot() async throws {
        try await SupabaseTestEmulator.with { emu in
            let missing = try await emu.call("POST", "/auth/v1/signup", [:], apikey: nil)
            #expect(missing.status == 401)
            #expect(missing.json["message"] == "No API key found in request")
            let forged = try await emu.call("GET", "/rest/v1/usernames", apikey: "not-a-key")
            #expect(forged.status == 401)
            #expect(forged.json["message"] == "Invalid API key")
            #expect(try await emu.call("GET", "/auth/v1/settings", apikey: emu.serviceKey).status == 200)
            #expect(try await emu.call("GET", "/auth/v1/verify?token=x&type=email", apikey: nil).status == 303)
            #expect(try await emu.call("GET", "/sesame/v1/supabase/messages", apikey: nil).status == 200)
        }
    }

    @Test func settingsDescribeTheConfiguration() async throws {
        try await SupabaseTestEmulator.with(SupabaseEmulatorConfiguration(port: 0, autoconfirm: false)) { emu in
            let settings = try await emu.call("GET", "/auth/v1/settings").json
            #expect(settings["external"]?["anonymous_users"] == true)
            #expect(settings["external"]?["email"] == true)
            #expect(settings["mailer_autoconfirm"] == false)
            #expect(settings["disable_signup"] == false)
        }
    }
}
