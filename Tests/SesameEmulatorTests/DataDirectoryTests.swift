import Foundation
import SesameEmulatorTesting
import SesameLocalAPI
import SesameTesting
import Testing

@testable import SesameEmulator

/// `EmulatorConfiguration.dataDirectory` (`--data-dir`): accounts, sessions, refresh tokens and
/// data outlive a restart, and every handled request reaches the disk without a stop.
@Suite("Data directory")
struct DataDirectoryTests {
    /// An emulator with both surfaces on a data directory, on ephemeral ports.
    private struct Both {
        let firebase: TestEmulator
        let supabase: SupabaseTestEmulator

        static func start(_ directory: String, time: EmulatorTime = EmulatorTime()) async throws -> Both {
            let emulator = try await SesameEmulator.start(
                EmulatorConfiguration(
                    authPort: 0, databasePort: 0, clock: time.clock, supabase: SupabaseEmulatorConfiguration(port: 0),
                    dataDirectory: directory))
            return Both(
                firebase: TestEmulator(emulator: emulator, time: time),
                supabase: SupabaseTestEmulator(
                    emulator: emulator, time: time, base: "http://127.0.0.1:\(try #require(emulator.supabasePort))",
                    anonKey: try #require(emulator.supabaseAnonKey),
                    serviceKey: try #require(emulator.supabaseServiceRoleKey)))
        }

        func stop() async { await firebase.emulator.stop() }
    }

    private static func temporaryDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("sesame-data-\(UUID().uuidString)").path
    }

    @Test func aRestartKeepsAccountsSessionsRefreshTokensAndData() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try await Both.start(directory)
        let guest = try await first.firebase.signUpAnonymously()
        let member = try await first.firebase.signUp(email: "kept@example.com", password: "kept-pw")
        _ = try await first.firebase.database(
            "PUT", "/users/kept.json", ["uid": member["localId"] ?? .null], query: "ns=demo-project-default-rtdb")
        let supabaseGuest = try await first.supabase.anonymousSession()
        let supabaseMember = try await first.supabase.passwordSession("kept@example.com", password: "kept-pw")
        _ = try await first.supabase.call("POST", "/auth/v1/otp", ["email": "kept@example.com"])
        let mails = try await first.supabase.messages()
        #expect(!mails.isEmpty)
        await first.stop()

        let second = try await Both.start(directory)
        let refreshed = try await second.firebase.refresh(try #require(guest["refreshToken"]?.stringValue))
        #expect(refreshed.status == 200, "\(refreshed.json.jsonString)")
        #expect(refreshed.json["user_id"] == guest["localId"])
        let signIn = try await second.firebase.auth(
            "accounts:signInWithPassword", ["email": "kept@example.com", "password": "kept-pw"])
        #expect(signIn.json["localId"] == member["localId"])
        let data = try await second.firebase.database(
            "GET", "/users/kept/uid.json", query: "ns=demo-project-default-rtdb")
        #expect(data.json == member["localId"])

        let supabaseRefreshed = try await second.supabase.refresh(supabaseGuest["refresh_token"]?.stringValue)
        #expect(supabaseRefreshed.status == 200, "\(supabaseRefreshed.json.jsonString)")
        #expect(supabaseRefreshed.json["user"]?["id"] == supabaseGuest["user"]?["id"])
        let bearer = try #require(supabaseMember["access_token"]?.stringValue)
        let user = try await second.supabase.call("GET", "/auth/v1/user", bearer: bearer)
        #expect(user.status == 200, "the session and the signing secret survive: \(user.json.jsonString)")
        let password = try await second.supabase.call(
            "POST", "/auth/v1/token?grant_type=password", ["email": "kept@example.com", "password": "kept-pw"])
        #expect(password.json["user"]?["id"] == supabaseMember["user"]?["id"])
        #expect(try await second.supabase.messages() == mails)
        await second.stop()
    }

    @Test func eachRequestReachesTheDiskWithoutAStop() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let running = try await Both.start(directory)
        let guest = try await running.firebase.signUpAnonymously()
        let uid = try #require(guest["localId"]?.stringValue)
        let supabaseUid = try #require(try await running.supabase.anonymousSession()["user"]?["id"]?.stringValue)
        try await eventually("both accounts are on disk") {
            func text(_ path: String) -> String {
                (try? String(contentsOfFile: directory + path, encoding: .utf8)) ?? ""
            }
            return text("/auth_export/accounts.json").contains(uid)
                && text("/supabase_export/state.json").contains(supabaseUid)
        }
        // What is on disk while the first still runs is what a SIGKILLed emulator leaves.
        let copy = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: copy) }
        try FileManager.default.copyItem(atPath: directory, toPath: copy)
        let second = try await Both.start(copy)
        let lookup = try await second.firebase.admin("accounts:lookup", ["localId": [.string(uid)]])
        #expect(lookup.json["users"]?.arrayValue?.first?["localId"]?.stringValue == uid)
        #expect(try await second.supabase.admin("GET", "users/\(supabaseUid)").status == 200)
        await second.stop()
        await running.stop()
        let mode =
            try FileManager.default.attributesOfItem(atPath: directory + "/auth_export/accounts.json")[
                .posixPermissions] as? Int
        #expect(mode == 0o600, "password hashes are in it")
    }

    @Test func deletedNamespacesAndAccountsStayDeleted() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try await Both.start(directory)
        let guest = try await first.firebase.signUpAnonymously()
        _ = try await first.firebase.database("PUT", "/a.json", "x", query: "ns=gone")
        _ = try await first.firebase.auth("accounts:delete", ["idToken": guest["idToken"] ?? .null])
        _ = try await first.firebase.database("DELETE", "/a.json", query: "ns=gone")
        await first.stop()
        let second = try await Both.start(directory)
        let lookup = try await second.firebase.admin("accounts:lookup", ["localId": [guest["localId"] ?? .null]])
        #expect(lookup.json["users"] == nil, "\(lookup.json.jsonString)")
        let refreshed = try await second.firebase.refresh(try #require(guest["refreshToken"]?.stringValue))
        #expect(refreshed.status == 400, "\(refreshed.json.jsonString)")
        #expect(try await second.firebase.database("GET", "/a.json", query: "ns=gone").json == .null)
        await second.stop()
    }

    @Test func anUnwritableDirectoryOrAnImportBesideItFailsTheStart() async throws {
        await #expect(throws: SesameEmulatorError.self) {
            _ = try await SesameEmulator.start(
                EmulatorConfiguration(authPort: 0, databasePort: 0, dataDirectory: "/proc/sesame-data"))
        }
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        await #expect(throws: SesameEmulatorError.self) {
            _ = try await SesameEmulator.start(
                EmulatorConfiguration(
                    authPort: 0, databasePort: 0, importDirectory: directory, dataDirectory: directory))
        }
    }
}
