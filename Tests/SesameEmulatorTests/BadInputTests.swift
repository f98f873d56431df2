import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("Bad input never crashes or hangs")
struct BadInputTests {
    @Test func oversizedBodiesAreRefusedOnBothPorts() async throws {
        try await TestEmulator.with { emu in
            let huge = [UInt8](repeating: UInt8(ascii: "a"), count: (1 << 20) + 1)
            let auth = try await emu.request(
                "POST", "\(emu.authBase)/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k", body: huge)
            #expect(auth.status == 413)
            #expect(auth.json["error"]?["code"] == 413)
            let database = try await emu.request("PUT", "\(emu.databaseBase)/a.json", body: huge)
            #expect(database.status == 413)
            #expect(database.json["error"]?.stringValue != nil)
            #expect(try await emu.signUpAnonymously()["localId"] != nil)
        }
    }

    @Test func malformedAndMistypedBodies() async throws {
        try await TestEmulator.with { emu in
            let url = "\(emu.authBase)/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k"
            for body in [
                "{", "[1,2]", "\"text\"", "{\"email\":}", "{\"email\":\"a@b.c\",}",
                String(repeating: "[", count: 100_000), "{\"a\":\"\u{01}\"}",
            ] {
                let answer = try await emu.request("POST", url, body: Array(body.utf8))
                #expect(answer.status == 400, "\(body.prefix(20))")
                #expect(answer.json["error"]?["status"] == "INVALID_ARGUMENT")
                #expect(answer.errorMessage?.hasPrefix("Invalid JSON payload received.") == true)
            }
            let mistyped = try await emu.auth("accounts:signUp", ["email": true, "password": "secret-pw"])
            #expect(mistyped.status == 400)
            #expect(mistyped.json["error"]?["status"] == "INVALID_ARGUMENT")
            #expect(mistyped.errorMessage == "Invalid JSON payload received. /email should be string, got boolean")
            let arrayForString = try await emu.auth("accounts:signInWithPassword", ["email": ["a"], "password": "x"])
            #expect(arrayForString.status == 400)
        }
    }

    @Test func unknownPathsAndMethodsAre404() async throws {
        try await TestEmulator.with { emu in
            for (method, path) in [
                ("POST", "/identitytoolkit.googleapis.com/v1/accounts:nothing?key=k"),
                ("GET", "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k"),
                ("GET", "/nowhere"),
                ("POST", "/emulator/v1/projects/demo-project/whatever"),
            ] {
                let answer = try await emu.request(method, emu.authBase + path, body: Array("{}".utf8))
                #expect(answer.status == 404, "\(method) \(path)")
                #expect(answer.errorMessage == "Not Found")
                #expect(answer.json["error"]?["status"] == "NOT_FOUND")
            }
        }
    }

    @Test func multiTenancyIs501() async throws {
        try await TestEmulator.with { emu in
            let tenant = try await emu.auth("accounts:signUp", ["tenantId": "t1"])
            #expect(tenant.status == 501)
        }
    }

    @Test func badClientsDoNotAffectGoodOnes() async throws {
        try await TestEmulator.with { emu in
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for i in 0..<40 {
                    group.addTask {
                        if i % 2 == 0 {
                            let bad = try await emu.request(
                                "POST", "\(emu.authBase)/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k",
                                body: Array("{broken".utf8))
                            return bad.status == 400
                        }
                        let good = try await emu.auth("accounts:signUp", [:])
                        return good.status == 200
                    }
                }
                for try await ok in group { #expect(ok) }
            }
        }
    }
}
