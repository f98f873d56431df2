import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("accounts:update, lookup, delete")
struct AccountUpdateTests {
    @Test func profileUpdatesReturnNoTokens() async throws {
        try await TestEmulator.with { emu in
            let user = try await emu.signUp(email: "profile@example.com")
            let named = try await emu.auth(
                "accounts:update",
                ["idToken": user["idToken"]!, "displayName": "Pro File", "photoUrl": "https://p.example/x.png"])
            #expect(named.status == 200)
            #expect(named.json["kind"] == "identitytoolkit#SetAccountInfoResponse")
            #expect(named.json["displayName"] == "Pro File")
            #expect(named.json["idToken"] == nil)
            let cleared = try await emu.auth(
                "accounts:update", ["idToken": user["idToken"]!, "deleteAttribute": ["DISPLAY_NAME"]])
            #expect(cleared.json["displayName"] == nil)
            #expect(cleared.json["photoUrl"] == "https://p.example/x.png")
            let lookup = try await emu.auth("accounts:lookup", ["idToken": user["idToken"]!])
            let record = try #require(lookup.json["users"]?.arrayValue?.first)
            #expect(record["displayName"] == nil)
            #expect(record["createdAt"]?.stringValue != nil)
            #expect(record["lastLoginAt"]?.stringValue != nil)
            #expect(record["validSince"]?.stringValue != nil)
            #expect(record["passwordUpdatedAt"]?.intValue != nil)
        }
    }

    @Test func settingAnEmailEchoesNewEmailAsSetAccountInfoDoes() async throws {
        try await TestEmulator.with { emu in
            let user = try await emu.signUp(email: "echo-before@example.com")
            let changed = try await emu.auth(
                "accounts:update", ["idToken": user["idToken"]!, "email": "Echo-After@Example.com"])
            #expect(changed.status == 200)
            #expect(changed.json["newEmail"] == "echo-after@example.com")
            let admin = try await emu.admin(
                "accounts:update", ["localId": user["localId"]!, "email": "echo-admin@example.com"])
            #expect(admin.json["newEmail"] == "echo-admin@example.com")
            let profileOnly = try await emu.auth(
                "accounts:update", ["idToken": changed.json["idToken"]!, "displayName": "Echo"])
            #expect(profileOnly.status == 200)
            #expect(profileOnly.json["newEmail"] == nil)
        }
    }

    @Test func changingEmailIssuesTokensAndResetsVerification() async throws {
        try await TestEmulator.with { emu in
            let user = try await emu.signUp(email: "before@example.com")
            let changed = try await emu.auth(
                "accounts:update", ["idToken": user["idToken"]!, "email": "After@Example.com"])
            #expect(changed.status == 200)
            #expect(changed.json["email"] == "after@example.com")
            #expect(changed.json["emailVerified"] == false)
            #expect(changed.json["idToken"] != nil)
            #expect(TestEmulator.claims(changed.json["idToken"])["email"] == "after@example.com")
            #expect(
                try await emu.auth("accounts:update", ["idToken": user["idToken"]!, "email": "bad"]).errorMessage
                    == "INVALID_EMAIL")
            #expect(
                try await emu.auth("accounts:update", ["idToken": user["idToken"]!, "password": "123"]).errorMessage
                    == "WEAK_PASSWORD : Password should be at least 6 characters")
        }
    }

    @Test func anonymousEmailOnlyKeepsAnonymousProvider() async throws {
        try await TestEmulator.with { emu in
            let anon = try await emu.signUpAnonymously()
            let changed = try await emu.auth(
                "accounts:update", ["idToken": anon["idToken"]!, "email": "anon@example.com"])
            #expect(TestEmulator.claims(changed.json["idToken"])["firebase"]?["sign_in_provider"] == "anonymous")
        }
    }

    @Test func deletePasswordProviderRemovesEmail() async throws {
        try await TestEmulator.with { emu in
            let user = try await emu.signUp(email: "unlink@example.com")
            let answer = try await emu.auth(
                "accounts:update", ["idToken": user["idToken"]!, "deleteProvider": ["password"]])
            #expect(answer.json["email"] == nil)
            #expect(answer.json["providerUserInfo"] == nil)
            let signIn = try await emu.auth(
                "accounts:signInWithPassword", ["email": "unlink@example.com", "password": "secret-pw"])
            #expect(signIn.errorMessage == "EMAIL_NOT_FOUND")
        }
    }

    @Test func updateAndLookupErrors() async throws {
        try await TestEmulator.with { emu in
            #expect(
                try await emu.auth("accounts:update", ["displayName": "x"]).errorMessage
                    == "INVALID_REQ_TYPE : Unsupported request parameters.")
            #expect(try await emu.auth("accounts:lookup", [:]).errorMessage == "MISSING_ID_TOKEN")
            #expect(try await emu.auth("accounts:lookup", ["idToken": "not.a.jwt"]).errorMessage == "INVALID_ID_TOKEN")
            #expect(try await emu.auth("accounts:delete", [:]).errorMessage == "MISSING_ID_TOKEN")
            let user = try await emu.signUpAnonymously()
            #expect(
                try await emu.auth("accounts:update", ["idToken": user["idToken"]!, "disableUser": true]).errorMessage
                    == "OPERATION_NOT_ALLOWED")
            let unsupported = try await emu.auth("accounts:update", ["idToken": user["idToken"]!, "provider": "x"])
            #expect(unsupported.status == 501)
        }
    }
}
