import SesameLocalAPI
import Testing

@testable import SesameEmulator

/// The typed request bodies: GoTrue's `bad_json` for a field of the wrong type or a body that is
/// not a JSON object, PostgREST's `PGRST102` for an insert that is not rows; unknown fields and
/// `null` are ignored, as GoTrue's Go decoder does.
@Suite("Supabase port: typed request bodies")
struct SupabaseRequestBodyTests {
    @Test func aFieldOfTheWrongTypeIsBadJSONNamingTheField() async throws {
        try await SupabaseTestEmulator.with { emu in
            let signUp = try await emu.call("POST", "/auth/v1/signup", ["email": 42, "password": "secret-pw"])
            #expect(signUp.status == 400)
            #expect(signUp.goTrueCode == "bad_json")
            #expect(signUp.json["msg"]?.stringValue?.contains("email") == true)
            let token = try await emu.call("POST", "/auth/v1/token?grant_type=refresh_token", ["refresh_token": ["x"]])
            #expect(token.goTrueCode == "bad_json")
            #expect(token.json["msg"]?.stringValue?.contains("refresh_token") == true)
            let versioned = try await emu.call(
                "POST", "/auth/v1/otp", ["create_user": "yes", "email": "a@example.com"], versioned: true)
            #expect(versioned.status == 400)
            #expect(versioned.json["code"] == "bad_json")
            let admin = try await emu.admin("POST", "users", ["email": "x@example.com", "email_confirm": "true"])
            #expect(admin.goTrueCode == "bad_json")
        }
    }

    @Test func aBodyThatIsNotAnObjectIsBadJSON() async throws {
        try await SupabaseTestEmulator.with { emu in
            let array = try await emu.call("POST", "/auth/v1/signup", [1, 2])
            #expect(array.status == 400)
            #expect(array.goTrueCode == "bad_json")
            let text = try await TestEmulator(emulator: emu.emulator, time: emu.time).request(
                "POST", emu.base + "/auth/v1/token?grant_type=password", body: Array("{\"email\":".utf8),
                headers: [("apikey", emu.anonKey), ("Content-Type", "application/json")])
            #expect(text.goTrueCode == "bad_json")
        }
    }

    @Test func unknownFieldsAndNullAreIgnored() async throws {
        try await SupabaseTestEmulator.with { emu in
            let anonymous = try await emu.call(
                "POST", "/auth/v1/signup", ["email": nil, "data": nil, "gotrue_meta_security": ["captcha_token": nil]])
            #expect(anonymous.status == 200)
            #expect(anonymous.json["user"]?["is_anonymous"] == true)
        }
    }

    @Test func fieldsAreMatchedByGoTruesSnakeCaseNamesOnly() async throws {
        try await SupabaseTestEmulator.with { emu in
            let session = try await emu.anonymousSession()
            let token = try #require(session["refresh_token"]?.stringValue)
            // `refreshToken` is no field of GoTrue's: the token counts as absent.
            let camel = try await emu.call(
                "POST", "/auth/v1/token?grant_type=refresh_token", ["refreshToken": .string(token)])
            #expect(camel.status == 400)
            #expect(camel.goTrueCode == "validation_failed")
            let snake = try await emu.refresh(token)
            #expect(snake.status == 200)
            // Nested objects keep their names: `data` is the user's metadata as sent.
            let signUp = try await emu.call(
                "POST", "/auth/v1/signup",
                ["email": "snake@example.com", "password": "secret-pw", "data": ["full_name": "Snake Case"]])
            #expect(signUp.json["user"]?["user_metadata"]?["full_name"] == "Snake Case")
        }
    }

    @Test func postgRESTInsertsTakeAnObjectOrAnArrayOfObjects() async throws {
        try await SupabaseTestEmulator.with { emu in
            let notRows = try await emu.rest("POST", "usernames", [1, 2], bearer: emu.serviceKey)
            #expect(notRows.status == 400)
            #expect(notRows.json["code"] == "PGRST102")
            let text = try await emu.rest("POST", "usernames", "a row", bearer: emu.serviceKey)
            #expect(text.json["code"] == "PGRST102")
        }
    }
}
