import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("Admin (Bearer owner) paths")
struct AdminTests {
    @Test func createLookupUpdateDelete() async throws {
        try await TestEmulator.with { emu in
            let created = try await emu.admin(
                "accounts",
                [
                    "localId": "admin-uid", "email": "Admin@Example.com", "password": "secret-pw",
                    "displayName": "Ad Min", "emailVerified": true, "phoneNumber": "+15555550100",
                ])
            #expect(created.status == 200)
            #expect(created.json["localId"] == "admin-uid")
            #expect(created.json["idToken"] == nil)
            #expect(try await emu.admin("accounts", ["localId": "admin-uid"]).errorMessage == "DUPLICATE_LOCAL_ID")
            #expect(
                try await emu.admin("accounts", ["phoneNumber": "5555"]).errorMessage
                    == "INVALID_PHONE_NUMBER : Invalid format.")
            #expect(
                try await emu.admin("accounts", ["phoneNumber": "+15555550100"]).errorMessage == "PHONE_NUMBER_EXISTS")
            #expect(try await emu.admin("accounts", ["email": "admin@example.com"]).errorMessage == "EMAIL_EXISTS")

            for query: JSONValue in [
                ["localId": ["admin-uid"]], ["email": ["admin@example.com"]], ["phoneNumber": ["+15555550100"]],
            ] {
                let lookup = try await emu.admin("accounts:lookup", query)
                let user = try #require(lookup.json["users"]?.arrayValue?.first)
                #expect(user["localId"] == "admin-uid")
                #expect(user["emailVerified"] == true)
                #expect(user["displayName"] == "Ad Min")
            }
            let none = try await emu.admin("accounts:lookup", ["localId": ["nobody"]])
            #expect(none.status == 200)
            #expect(none.json["users"] == nil)

            let claims = try await emu.admin(
                "accounts:update", ["localId": "admin-uid", "customAttributes": #"{"admin":true}"#])
            #expect(claims.status == 200)
            let signIn = try await emu.auth(
                "accounts:signInWithPassword", ["email": "admin@example.com", "password": "secret-pw"])
            let tokenClaims = TestEmulator.claims(signIn.json["idToken"])
            #expect(tokenClaims["admin"] == true)
            #expect(tokenClaims["phone_number"] == "+15555550100")
            #expect(tokenClaims["firebase"]?["identities"]?["phone"] == ["+15555550100"])
            #expect(
                try await emu.admin("accounts:update", ["localId": "admin-uid", "customAttributes": #"{"iss":1}"#])
                    .errorMessage == "FORBIDDEN_CLAIM : iss")
            #expect(
                try await emu.admin("accounts:update", ["localId": "admin-uid", "customAttributes": "[1]"]).errorMessage
                    == "INVALID_CLAIMS")
            #expect(
                try await emu.admin("accounts:update", ["email": "x@example.com"]).errorMessage == "MISSING_LOCAL_ID")
            #expect(try await emu.admin("accounts:update", ["localId": "ghost"]).errorMessage == "USER_NOT_FOUND")

            #expect(try await emu.admin("accounts:delete", ["localId": "ghost"]).errorMessage == "USER_NOT_FOUND")
            #expect(try await emu.admin("accounts:delete", ["localId": "admin-uid"]).status == 200)
            #expect(
                try await emu.auth("accounts:lookup", ["idToken": signIn.json["idToken"]!]).errorMessage
                    == "USER_NOT_FOUND")
        }
    }

    @Test func batchGetPagesAndBatchDelete() async throws {
        try await TestEmulator.with { emu in
            for i in 0..<5 { _ = try await emu.admin("accounts", ["localId": .string("user-\(i)")]) }
            let first = try await emu.request(
                "GET",
                "\(emu.authBase)/identitytoolkit.googleapis.com/v1/projects/demo-project/accounts:batchGet?maxResults=3",
                headers: [("Authorization", "Bearer owner")])
            #expect(first.status == 200)
            #expect(
                first.json["users"]?.arrayValue?.compactMap { $0["localId"]?.stringValue } == [
                    "user-0", "user-1", "user-2",
                ])
            let token = try #require(first.json["nextPageToken"]?.stringValue)
            let second = try await emu.request(
                "GET",
                "\(emu.authBase)/identitytoolkit.googleapis.com/v1/projects/demo-project/accounts:batchGet?maxResults=3&nextPageToken=\(token)",
                headers: [("Authorization", "Bearer owner")])
            #expect(
                second.json["users"]?.arrayValue?.compactMap { $0["localId"]?.stringValue } == ["user-3", "user-4"])
            #expect(second.json["nextPageToken"] == nil)

            let notForced = try await emu.admin("accounts:batchDelete", ["localIds": ["user-0"]])
            #expect(notForced.json["errors"]?.arrayValue?.count == 1)
            let deleted = try await emu.admin(
                "accounts:batchDelete", ["localIds": ["user-0", "user-1", "ghost"], "force": true])
            #expect(deleted.status == 200)
            #expect(deleted.json["errors"] == nil)
            let query = try await emu.admin("accounts:query", ["returnUserInfo": true])
            #expect(query.json["recordsCount"] == "3")
        }
    }

    @Test func sendOobCodeReturnsLinksToAdmins() async throws {
        try await TestEmulator.with { emu in
            _ = try await emu.admin("accounts", ["localId": "u1", "email": "links@example.com"])
            for type in ["EMAIL_SIGNIN", "PASSWORD_RESET", "VERIFY_EMAIL"] {
                let answer = try await emu.admin(
                    "accounts:sendOobCode",
                    [
                        "requestType": .string(type), "email": "links@example.com", "returnOobLink": true,
                        "continueUrl": "https://app.example",
                    ])
                #expect(answer.status == 200, "\(type) \(answer.json.jsonString)")
                #expect(answer.json["oobCode"]?.stringValue?.count == 54)
                #expect(answer.json["oobLink"]?.stringValue?.contains("/emulator/action?mode=") == true)
            }
            let unknown = try await emu.admin(
                "accounts:sendOobCode",
                ["requestType": "VERIFY_EMAIL", "email": "ghost@example.com", "returnOobLink": true])
            #expect(unknown.errorMessage == "USER_NOT_FOUND")
        }
    }

    @Test func bearerRules() async throws {
        try await TestEmulator.with { emu in
            let url = "\(emu.authBase)/identitytoolkit.googleapis.com/v1/accounts:signUp"
            let other = try await emu.request(
                "POST", url + "?key=k", body: Array("{}".utf8), headers: [("Authorization", "Bearer some-id-token")])
            #expect(other.status == 401)
            #expect(other.json["error"]?["status"] == "UNAUTHENTICATED")
            let owner = try await emu.request(
                "POST", url, body: Array("{}".utf8), headers: [("Authorization", "bearer OWNER")])
            #expect(owner.status == 200)
            let basic = try await emu.request(
                "POST", url + "?key=k", body: Array("{}".utf8), headers: [("Authorization", "Basic abc")])
            #expect(basic.status == 200)
            let projectPath = try await emu.request(
                "POST", "\(emu.authBase)/identitytoolkit.googleapis.com/v1/projects/demo-project/accounts:lookup?key=k",
                body: Array("{}".utf8))
            #expect(
                projectPath.errorMessage
                    == "INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id.")
            let target = try await emu.auth("accounts:lookup", ["targetProjectId": "demo-project", "idToken": "x"])
            #expect(
                target.errorMessage
                    == "INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id.")
            let claims = try await emu.auth("accounts:update", ["idToken": "x", "customAttributes": "{}"])
            #expect(claims.errorMessage == "INSUFFICIENT_PERMISSION")
        }
    }
}
