import Foundation
import SesameLocalAPI
import SesameTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `sesame-emulator --data-dir`: the built emulator, restarted as a process, keeps its accounts
/// and their refresh tokens; so `make run` restarted never shows a session the backend forgot.
@Suite("sesame-emulator --data-dir")
struct EmulatorDataDirectoryTests {
    @Test(
        "a restarted emulator (SIGTERM, SIGKILL) has the same accounts, and their refresh tokens work",
        arguments: TestBackend.allCases)
    func restartKeepsAccounts(backend: TestBackend) async throws {
        let data = try makeTemporaryDirectory("data")
        defer { try? FileManager.default.removeItem(atPath: data) }
        var emulator = try await EmulatorProcess.start(backend: backend, arguments: ["--data-dir", data])
        var (uid, refreshToken) = try await Self.signUpAnonymously(emulator)
        for stop in ["SIGTERM", "SIGKILL"] {
            if stop == "SIGKILL" {
                // Saved after the request, not only on the way out: wait for it, then give no chance.
                let file = data + (backend == .supabase ? "/supabase_export/state.json" : "/auth_export/accounts.json")
                try await eventually("the account is on disk") {
                    ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").contains(uid)
                }
                emulator.child.signal(SIGKILL)
            }
            await emulator.stop()
            emulator = try await EmulatorProcess.start(backend: backend, arguments: ["--data-dir", data])
            #expect(try await emulator.accountExists(uid), "after \(stop)")
            let refreshed = try await Self.refresh(emulator, refreshToken)
            #expect(refreshed.uid == uid, "after \(stop): \(refreshed)")
            refreshToken = refreshed.refreshToken ?? refreshToken
            (uid, refreshToken) = try await Self.signUpAnonymously(emulator)
        }
        await emulator.stop()
    }

    @Test("the daemon's keyring and the restarted emulator agree: same uid, a forced refresh works")
    func daemonSessionSurvivesAnEmulatorRestart() async throws {
        let data = try makeTemporaryDirectory("data")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let first = try await EmulatorProcess.start(arguments: ["--data-dir", data])
        let daemon = try await DaemonProcess.start(emulator: first)
        let uid = try #require(try await daemon.uid())
        try await daemon.stop()
        await first.stop()
        // The same ports, as `make run` uses: the daemon's configuration names them.
        let second = try await EmulatorProcess.start(arguments: [
            "--data-dir", data, "--auth-port", "\(first.authPort)", "--database-port", "\(first.databasePort)",
        ])
        do {
            try await daemon.restart()
            #expect(try await daemon.uid() == uid)
            #expect(try await second.accountExists(uid))
            let token = try await daemon.ctl(["token", "--force"])
            #expect(token.status == 0, "\(token.stderr)")
            #expect(try await daemon.uid() == uid, "\(daemon.log.suffix(2000))")
        } catch {
            await daemon.cleanUp()
            await second.stop()
            throw error
        }
        await daemon.cleanUp()
        await second.stop()
    }

    /// A new anonymous account at the backend: its uid and refresh token.
    static func signUpAnonymously(_ emulator: EmulatorProcess) async throws -> (String, String) {
        let (uid, token): (String?, String?)
        if emulator.backend == .supabase {
            let (_, body) = try await emulator.supabaseRequest("POST", "/auth/v1/signup", json: [:], admin: false)
            (uid, token) = (body["user"]?["id"]?.stringValue, body["refresh_token"]?.stringValue)
        } else {
            let (_, body) = try await emulator.request(
                "POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k", json: ["returnSecureToken": true])
            (uid, token) = (body["localId"]?.stringValue, body["refreshToken"]?.stringValue)
        }
        guard let uid, let token else { throw HarnessError("anonymous sign-up failed") }
        return (uid, token)
    }

    /// A refresh at the backend: the uid it answers for and the next refresh token.
    static func refresh(
        _ emulator: EmulatorProcess, _ refreshToken: String
    ) async throws -> (uid: String?, refreshToken: String?) {
        if emulator.backend == .supabase {
            let (_, body) = try await emulator.supabaseRequest(
                "POST", "/auth/v1/token?grant_type=refresh_token", json: ["refresh_token": .string(refreshToken)],
                admin: false)
            return (body["user"]?["id"]?.stringValue, body["refresh_token"]?.stringValue)
        }
        let (_, body) = try await emulator.request(
            "POST", "/securetoken.googleapis.com/v1/token?key=k",
            json: ["grant_type": "refresh_token", "refresh_token": .string(refreshToken)])
        return (body["user_id"]?.stringValue, body["refresh_token"]?.stringValue)
    }
}
