import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("Emulator-only endpoints")
struct EmulatorEndpointTests {
    @Test func readinessConfigAndReset() async throws {
        try await TestEmulator.with { emu in
            let ready = try await emu.request("GET", "\(emu.authBase)/")
            #expect(ready.json["authEmulator"]?["ready"] == true)
            let config = try await emu.request("GET", "\(emu.authBase)/emulator/v1/projects/demo-project/config")
            #expect(
                config.json == [
                    "signIn": ["allowDuplicateEmails": false],
                    "emailPrivacyConfig": ["enableImprovedEmailPrivacy": false],
                ])
            let patched = try await emu.request(
                "PATCH", "\(emu.authBase)/emulator/v1/projects/demo-project/config",
                body: (["signIn": ["allowDuplicateEmails": true]] as JSONValue).serialized())
            #expect(patched.json["signIn"]?["allowDuplicateEmails"] == true)
            _ = try await emu.signUp(email: "dup@example.com")
            _ = try await emu.signUp(email: "dup@example.com")

            _ = try await emu.sendSignInLink(to: "keep@example.com")
            let cleared = try await emu.request("DELETE", "\(emu.authBase)/emulator/v1/projects/demo-project/accounts")
            #expect(cleared.status == 200)
            #expect(cleared.json == .object([:]))
            #expect(
                try await emu.auth(
                    "accounts:signInWithPassword", ["email": "dup@example.com", "password": "secret-pw"]
                ).errorMessage == "EMAIL_NOT_FOUND")
            #expect(try await emu.oobCode(for: "keep@example.com") != nil)
        }
    }

    @Test func legacyV3PathsAreRewritten() async throws {
        try await TestEmulator.with { emu in
            let answer = try await emu.request(
                "POST", "\(emu.authBase)/www.googleapis.com/identitytoolkit/v3/relyingparty/signupNewUser?key=k",
                body: Array("{}".utf8))
            #expect(answer.status == 200)
            #expect(answer.json["kind"] == "identitytoolkit#SignupNewUserResponse")
        }
    }

    @Test func corsPreflight() async throws {
        try await TestEmulator.with { emu in
            let answer = try await emu.request(
                "OPTIONS", "\(emu.authBase)/identitytoolkit.googleapis.com/v1/accounts:signUp",
                headers: [("Origin", "http://app.example"), ("Access-Control-Request-Headers", "x-client-version")])
            #expect(answer.status == 204)
            #expect(answer.header("access-control-allow-origin") == "http://app.example")
            #expect(answer.header("access-control-allow-headers") == "x-client-version")
        }
    }
}
