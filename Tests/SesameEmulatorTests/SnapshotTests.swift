import Foundation
import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("Import and export")
struct SnapshotTests {
    @Test func exportThenImportKeepsAccountsAndData() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sesame-export-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var uid = ""
        try await TestEmulator.with { emu in
            uid = try await emu.signUp(email: "kept@example.com", password: "kept-pw")["localId"]?.stringValue ?? ""
            let postBody = TestEmulator.idpPostBody(["sub": "g-kept"])
            _ = try await emu.auth(
                "accounts:signInWithIdp", ["postBody": .string(postBody), "requestUri": "http://localhost"])
            _ = try await emu.database(
                "PUT", "/users/kept.json", ["uid": .string(uid)], query: "ns=demo-project-default-rtdb")
            try await emu.emulator.export(to: directory)
        }
        #expect(FileManager.default.fileExists(atPath: directory + "/auth_export/accounts.json"))
        try await TestEmulator.with(importDirectory: directory) { emu in
            let signIn = try await emu.auth(
                "accounts:signInWithPassword", ["email": "kept@example.com", "password": "kept-pw"])
            #expect(signIn.json["localId"]?.stringValue == uid)
            let idp = try await emu.auth(
                "accounts:signInWithIdp",
                ["postBody": .string(TestEmulator.idpPostBody(["sub": "g-kept"])), "requestUri": "http://localhost"])
            #expect(idp.json["isNewUser"] == nil)
            #expect(try await emu.database("GET", "/users/kept/uid.json", query: "").json.stringValue == uid)
        }
    }

    @Test func missingImportDirectoryFailsToStart() async throws {
        await #expect(throws: SesameEmulatorError.self) {
            _ = try await SesameEmulator.start(
                EmulatorConfiguration(authPort: 0, databasePort: 0, importDirectory: "/nonexistent/sesame-import"))
        }
    }

    @Test func busyPortFailsToStart() async throws {
        try await TestEmulator.with { emu in
            await #expect(throws: (any Error).self) {
                let second = try await SesameEmulator.start(
                    EmulatorConfiguration(authPort: emu.emulator.authPort, databasePort: 0))
                await second.stop()
            }
        }
    }
}
