import Foundation
import SesameClient
import SesameLocalAPI
import SesameTesting
import Testing

/// Issue 34, item 4: `session.persistence = "memory"` with the real daemon process and the
/// emulator. The daemon never removes its state directory or a keyring file once made, so a
/// state directory that does not exist after the session's whole life proves that nothing
/// was written at any time.
@Suite("kiosk sessions: session.persistence = memory", .serialized, .timeLimit(.minutes(3)))
struct KioskPersistenceTests {
    static let memory = ["session": ["persistence": "\"memory\""], "merge": ["hold": "0"]]

    @Test(
        "no keyring file at any time (refresh, profile change, stop, restart); at stop the guest is deleted at the backend; the next start is fresh",
        arguments: TestBackend.allCases)
    func guestDeletedAtStop(backend: TestBackend) async throws {
        try await withEmulatorAndDaemon(backend: backend, settings: Self.memory) { emulator, daemon in
            let client = daemon.client()
            defer { Task { await client.close() } }
            let guest = try #require(try await client.state().user?.uid)
            try expectNothingWritten(daemon)
            #expect(try await client.idToken(forceRefresh: true).uid == guest)
            try expectNothingWritten(daemon)
            _ = try await client.updateProfile(displayName: "Counter 3")
            try expectNothingWritten(daemon)
            #expect(try await emulator.accountExists(guest))

            #expect(try await daemon.stop() == 0)
            #expect(try await !emulator.accountExists(guest))
            #expect(daemon.log.contains("Deleting the guest at stop"))
            try expectNothingWritten(daemon)

            try await daemon.restart()
            let fresh = daemon.client()
            defer { Task { await fresh.close() } }
            let next = try #require(try await fresh.state().user?.uid)
            #expect(next != guest)
            try expectNothingWritten(daemon)
        }
    }

    @Test(
        "an account signed in at stop (sign-in, merge, refresh, profile change) is signed out (ended at the server on Supabase), kept at the backend, and gone after the restart; nothing written",
        arguments: TestBackend.allCases)
    func accountSignedOutAtStop(backend: TestBackend) async throws {
        try await withEmulatorAndDaemon(backend: backend, settings: Self.memory) { emulator, daemon in
            let client = daemon.client()
            defer { Task { await client.close() } }
            let guest = try #require(try await client.state().user?.uid)
            let uid = try await emulator.createAccount(email: "kiosk@example.com", password: "secret12")
            let signedIn = try await client.signIn(identifier: "kiosk@example.com", password: "secret12")
            #expect(signedIn.state.user?.uid == uid)
            try expectNothingWritten(daemon)
            // merge.hold = 0, as configuration.md advises kiosks: the guest goes at once.
            try await eventually("the merged guest is deleted") { try await !emulator.accountExists(guest) }
            #expect(try await client.idToken(forceRefresh: true).uid == uid)
            _ = try await client.updateProfile(displayName: "Customer")
            try expectNothingWritten(daemon)
            let logouts = try await emulator.calls()["logout"] ?? 0

            #expect(try await daemon.stop() == 0)
            #expect(try await emulator.accountExists(uid))
            if backend == .supabase {
                #expect(try await emulator.calls()["logout"] ?? 0 == logouts + 1)
            }
            try await daemon.restart()
            let fresh = daemon.client()
            defer { Task { await fresh.close() } }
            let state = try await fresh.state()
            #expect(state.status == .anonymous && state.user?.uid != uid)
            try expectNothingWritten(daemon)
        }
    }

    @Test(
        "sesamectl sign-out --reset deletes the guest at the backend at once; a fresh guest follows",
        arguments: TestBackend.allCases)
    func resetBetweenCustomers(backend: TestBackend) async throws {
        try await withEmulatorAndDaemon(backend: backend, settings: Self.memory) { emulator, daemon in
            let client = daemon.client()
            defer { Task { await client.close() } }
            let guest = try #require(try await client.state().user?.uid)
            let result = try await daemon.ctl(["sign-out", "--reset"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try await !emulator.accountExists(guest))
            let next = try await client.state()
            #expect(next.status == .anonymous && next.user?.uid != guest)
            try expectNothingWritten(daemon)
        }
    }

    @Test("session.persistence other than disk or memory stops sesamed with 78 naming the key and the values")
    func badPersistence() async throws {
        let directory = try makeTemporaryDirectory("c")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "[firebase]\napi_key = \"k\"\nproject_id = \"p\"\n[session]\npersistence = \"ram\"\n".write(
            toFile: directory + "/c.toml", atomically: true, encoding: .utf8)
        let result = try await runCommand(
            BuiltBinaries.path("sesamed"), ["--config", directory + "/c.toml", "--state-dir", directory + "/state"])
        #expect(result.status == 78)
        #expect(result.stderr.contains("'session.persistence' must be \"disk\" or \"memory\""), "\(result.stderr)")
    }

    /// The state directory (where the keyring, its key and its lock would be) does not exist.
    private func expectNothingWritten(
        _ daemon: DaemonProcess, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let exists = FileManager.default.fileExists(atPath: daemon.stateDirectory)
        #expect(!exists, "the state directory was created", sourceLocation: sourceLocation)
        let files = try FileManager.default.contentsOfDirectory(atPath: daemon.directory)
        #expect(!files.contains { $0.hasPrefix("keyring") }, "\(files)", sourceLocation: sourceLocation)
    }
}
