import Foundation
import SesameClient
import SesameLocalAPI
import SesameTesting
import Testing

/// The session's life on each backend (issue 9, item 6): anonymous first, restarts, token
/// refreshes ahead of expiry and forced, one refresh for many callers, SIGKILL mid-refresh.
@Suite("flows: the session", .serialized, .timeLimit(.minutes(3)))
struct SessionFlowTests {
    @Test(
        "anonymous first; a restart keeps the uid and creates no new account; SIGTERM exits 0",
        arguments: TestBackend.allCases)
    func anonymousFirstAndRestart(backend: TestBackend) async throws {
        try await withEmulatorAndDaemon(backend: backend) { emulator, daemon in
            let uid = try #require(try await daemon.uid())
            #expect(try await emulator.accountInfo(uid)?.isAnonymous == true)
            let signUp = backend == .supabase ? "signup" : "accounts:signUp"
            #expect(try await emulator.calls()[signUp] == 1)
            let mode = try FileManager.default.attributesOfItem(atPath: daemon.stateDirectory + "/keyring")[
                .posixPermissions]
            #expect(mode as? Int == 0o600)

            #expect(try await daemon.stop() == 0)
            try await daemon.restart()
            #expect(try await daemon.uid() == uid)
            #expect(try await emulator.calls()[signUp] == 1)
            let socketPath = daemon.socketPath
            let hello = try await onOwnThread { try rawCall(socketPath, #"{"jsonrpc":"2.0","id":1,"method":"hello"}"#) }
            #expect(hello["result"]?["backend"]?.stringValue == backend.rawValue)
        }
    }

    @Test("the token is renewed ahead of expiry by itself", arguments: TestBackend.allCases)
    func proactiveRefresh(backend: TestBackend) async throws {
        let emulator = try await EmulatorProcess.start(backend: backend, tokenLifetime: 60)
        defer { Task { await emulator.stop() } }
        let daemon = try await DaemonProcess.start(emulator: emulator, settings: ["session": ["refresh_margin": "300"]])
        defer { Task { await daemon.cleanUp() } }
        let client = daemon.client()
        defer { Task { await client.close() } }
        let first = try await client.state()
        // With a 60 s lifetime and a 300 s margin, the daemon refreshes at half the lifetime:
        // 30 s, the soonest it ever refreshes by itself (RefreshSchedule.minimumInterval).
        try await eventually("a refresh happened without anyone asking", timeout: .seconds(50)) {
            try await emulator.refreshCount() >= 1
        }
        try await eventually("the state shows the new expiry") {
            (try await client.state().tokenExpiresAt ?? .distantPast) > (first.tokenExpiresAt ?? .distantFuture)
        }
        #expect(try await client.state().user?.uid == first.user?.uid)
        // On Supabase every refresh rotated the refresh token: the stored one is the newest.
        let forced = try await client.idToken(forceRefresh: true)
        #expect(forced.uid == first.user?.uid)
        #expect(!daemon.log.contains("session is over"), "\(daemon.log.suffix(2000))")
    }

    @Test("200 concurrent forced token requests make exactly one backend refresh", arguments: TestBackend.allCases)
    func singleFlight(backend: TestBackend) async throws {
        try await withEmulatorAndDaemon(backend: backend) { emulator, daemon in
            let clients = (0..<4).map { _ in daemon.client() }
            defer { for client in clients { Task { await client.close() } } }
            for client in clients { _ = try await client.hello() }
            let uid = try await daemon.uid()
            #expect(try await emulator.refreshCount() == 0)
            // Slow refreshes, so all 200 calls arrive while the first is still running.
            try await emulator.faults(["latencyMs": 1500, "pathPrefix": .string(emulator.refreshPathPrefix)])
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for i in 0..<200 {
                    let client = clients[i % clients.count]
                    group.addTask { try await client.idToken(forceRefresh: true).token }
                }
                var tokens = Set<String>()
                for try await token in group { tokens.insert(token) }
                return tokens
            }
            #expect(tokens.count == 1)
            #expect(try await emulator.refreshCount() == 1)
            try await emulator.faults(["latencyMs": 0])
            // The one refresh's (rotated, on Supabase) refresh token was kept: the next works.
            let next = try await clients[0].idToken(forceRefresh: true)
            #expect(next.uid == uid)
            #expect(try await emulator.refreshCount() == 2)
        }
    }

    /// On Supabase this is the rotation case: GoTrue has rotated the refresh token, the daemon
    /// dies before it can store the new one, and replays the parent after the restart; GoTrue
    /// answers the active token (the parent of the active token is always accepted), so the
    /// session lives on. On Firebase refresh tokens do not rotate; the same steps keep it too.
    @Test(
        "SIGKILL after the backend refreshed but before the answer arrived: restart keeps the session",
        arguments: TestBackend.allCases)
    func sigkillMidRefresh(backend: TestBackend) async throws {
        try await withEmulatorAndDaemon(backend: backend) { emulator, daemon in
            let uid = try #require(try await daemon.uid())
            try await emulator.faults(["answerDelayMs": 120_000, "pathPrefix": .string(emulator.refreshPathPrefix)])
            let client = daemon.client()
            let pending = Task { try? await client.idToken(forceRefresh: true) }
            try await eventually("the backend handled the refresh and holds its answer") {
                try await emulator.answersHeld() >= 1
            }
            #expect(try await emulator.refreshCount() == 1)
            try await daemon.kill()
            _ = await pending.value
            await client.close()
            try await emulator.faults(["answerDelayMs": 0])

            try await daemon.restart()
            #expect(try await daemon.uid() == uid)
            let again = daemon.client()
            defer { Task { await again.close() } }
            let token = try await again.idToken(forceRefresh: true)
            #expect(token.uid == uid)
            #expect(try await emulator.refreshCount() == 2)
            // The family was not revoked: the refresh token now held is the active one.
            _ = try await again.idToken(forceRefresh: true)
            #expect(try await again.state().user?.uid == uid)
            #expect(try await emulator.accountExists(uid))
            #expect(!daemon.log.contains("session is over"), "\(daemon.log.suffix(2000))")
            #expect(!daemon.log.contains("refresh_token_already_used"))
        }
    }
}
