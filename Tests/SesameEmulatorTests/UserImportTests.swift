import SesameCore
import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("User import (accounts:batchCreate)")
struct UserImportTests {
    func signIn(_ emu: TestEmulator, _ email: String, _ password: String) async throws -> HTTPAnswer {
        try await emu.auth(
            "accounts:signInWithPassword",
            ["email": .string(email), "password": .string(password), "returnSecureToken": true])
    }

    @Test func importsFieldsAndPasswordsThatSignIn() async throws {
        try await TestEmulator.with { emu in
            let base64Hash = Base64URL.encode(Array("fakeHash:salt=s2:password=second-pw".utf8))
            let answer = try await emu.admin(
                "accounts:batchCreate",
                [
                    "hashAlgorithm": "HMAC_SHA256", "signerKey": "c2VjcmV0",
                    "users": [
                        [
                            "localId": "imp-1", "email": "One@Example.com", "emailVerified": true,
                            "displayName": "One", "disabled": false, "customAttributes": #"{"role":"ops"}"#,
                            "passwordHash": "fakeHash:salt=s1:password=first-pw", "salt": "s1",
                            "createdAt": "1600000000000",
                            "providerUserInfo": [
                                ["providerId": "google.com", "rawId": "g-1", "email": "one@example.com"]
                            ],
                        ],
                        ["localId": "imp-2", "email": "two@example.com", "passwordHash": .string(base64Hash)],
                        ["localId": "imp-3", "email": "three@example.com", "rawPassword": "third-pw"],
                        [
                            "localId": "imp-4", "email": "four@example.com", "passwordHash": "JDJhJDEwJG9wYXF1ZQ==",
                            "salt": "c2FsdA==",
                            "lastLoginAt": "1600000100000",
                        ],
                    ],
                ])
            #expect(answer.status == 200)
            #expect(answer.json["error"] == [])
            #expect(try await signIn(emu, "one@example.com", "first-pw").status == 200)
            #expect(try await signIn(emu, "two@example.com", "second-pw").status == 200)
            let third = try await signIn(emu, "three@example.com", "third-pw")
            #expect(third.status == 200)
            #expect(TestEmulator.claims(third.json["idToken"])["sub"] == "imp-3")
            #expect(try await signIn(emu, "four@example.com", "anything").errorMessage == "INVALID_PASSWORD")

            let lookup = try await emu.admin("accounts:lookup", ["localId": ["imp-1", "imp-4"]])
            let users = lookup.json["users"]?.arrayValue ?? []
            let one = try #require(users.first { $0["localId"] == "imp-1" })
            #expect(one["email"] == "one@example.com")
            #expect(one["emailVerified"] == true)
            #expect(one["displayName"] == "One")
            #expect(one["customAttributes"] == #"{"role":"ops"}"#)
            #expect(one["createdAt"] == "1600000000000")
            let providers = one["providerUserInfo"]?.arrayValue?.compactMap { $0["providerId"]?.stringValue }
            #expect(Set(providers ?? []) == ["password", "google.com"])
            let four = try #require(users.first { $0["localId"] == "imp-4" })
            #expect(four["passwordHash"] == "JDJhJDEwJG9wYXF1ZQ==")
            #expect(four["lastLoginAt"] == "1600000100000")
            #expect(four["providerUserInfo"]?.arrayValue?.first?["providerId"] == "password")
        }
    }

    @Test func refusedUsersAreReportedByIndexAndTheRestImported() async throws {
        try await TestEmulator.with { emu in
            _ = try await emu.signUp(email: "taken@example.com")
            _ = try await emu.admin("accounts", ["localId": "existing"])
            let answer = try await emu.admin(
                "accounts:batchCreate",
                [
                    "users": [
                        ["email": "nolocal@example.com"],
                        ["localId": "bad-claims", "customAttributes": #"{"sub":"x"}"#],
                        ["localId": "bad-email", "email": "not-an-email"],
                        ["localId": "dup-email", "email": "taken@example.com"],
                        ["localId": "existing"],
                        ["localId": "bad-phone", "phoneNumber": "5555"],
                        ["localId": "fine", "email": "fine@example.com"],
                    ]
                ])
            #expect(answer.status == 200)
            let messages = (answer.json["error"]?.arrayValue ?? []).map {
                "\($0["index"]?.intValue ?? -1): \($0["message"]?.stringValue ?? "")"
            }
            #expect(
                messages == [
                    "0: localId is missing", "1: Custom claims provided include a reserved claim.",
                    "2: email is invalid",
                    "3: ((Auth Emulator does not support importing duplicate email: taken@example.com))",
                    "4: localId belongs to an existing account - can not overwrite.",
                    "5: phone number format is invalid",
                ])
            let fine = try await emu.admin("accounts:lookup", ["localId": ["fine", "bad-email"]])
            #expect(fine.json["users"]?.arrayValue?.map { $0["localId"] } == ["fine"])
            let overwrite = try await emu.admin(
                "accounts:batchCreate",
                ["allowOverwrite": true, "users": [["localId": "existing", "displayName": "New"]]])
            #expect(overwrite.json["error"] == [])
        }
    }

    @Test func requestWideProblemsRefuseTheWholeBatch() async throws {
        try await TestEmulator.with { emu in
            #expect(try await emu.admin("accounts:batchCreate", ["users": []]).errorMessage == "MISSING_USER_ACCOUNT")
            #expect(
                try await emu.admin("accounts:batchCreate", ["users": [["localId": "a"], ["localId": "a"]]])
                    .errorMessage
                    == "DUPLICATE_LOCAL_ID : a")
            let duplicateEmail: JSONValue = [
                "sanityCheck": true,
                "users": [["localId": "a", "email": "x@example.com"], ["localId": "b", "email": "x@example.com"]],
            ]
            #expect(
                try await emu.admin("accounts:batchCreate", duplicateEmail).errorMessage
                    == "DUPLICATE_EMAIL : x@example.com")
            let unprivileged = try await emu.auth("accounts:batchCreate", ["users": [["localId": "a"]]])
            #expect(unprivileged.errorMessage?.hasPrefix("INSUFFICIENT_PERMISSION") == true)
            #expect(try await emu.admin("accounts:lookup", ["localId": ["a", "b"]]).json["users"] == nil)
        }
    }
}
