import Foundation
import SesameClient
import SesameLocalAPI
import SesameTesting
import Testing

/// Provisioning (issue 20): `signInWithCustomToken` on both backends, and `provisioning.token_file`
/// read once at start.
@Suite("sign-in flows end to end: custom tokens and provisioning", .serialized, .timeLimit(.minutes(3)))
struct CustomTokenTests {
    /// A token the backend mints for an account the project's server chose.
    private func mint(_ emulator: EmulatorProcess, uid: String, email: String) async throws -> String {
        if emulator.backend == .supabase { return try await emulator.supabaseMagicLinkHash(email: email) }
        return EmulatorProcess.unsignedCustomToken(uid: uid)
    }

    @Test("from a guest: signed in to the token's account, the guest merged into it", arguments: TestBackend.allCases)
    func fromGuestMerges(backend: TestBackend) async throws {
        try await withDaemon(backend: backend, settings: ["merge": ["hold": "0"]]) { emulator, daemon, client, watch in
            let account = try await emulator.createAccount(email: "fleet-1@example.com", password: "secret12")
            let guest = try #require(try await client.state().user?.uid)
            let token = try await mint(emulator, uid: account, email: "fleet-1@example.com")
            let (state, merge) = try await client.signInWithCustomToken(token)
            #expect(state.user?.uid == account)
            #expect(state.status == .authenticated)
            #expect(merge?.fromUid == guest && merge?.toUid == account)
            #expect(!daemon.log.contains(token))
        }
    }

    @Test(
        "a malformed, expired or reused token: invalid-custom-token, the guest as it was",
        arguments: TestBackend.allCases)
    func refusedTokens(backend: TestBackend) async throws {
        try await withDaemon(backend: backend) { emulator, daemon, client, watch in
            let before = try await client.state()
            var refused = ["not-a-token", "eyJhbGciOiJub25lIn0.e30."]
            if backend == .firebase {
                refused.append(EmulatorProcess.unsignedCustomToken(uid: "late", expiresIn: -3600))
            } else {
                let hash = try await emulator.supabaseMagicLinkHash(email: "used@example.com")
                _ = try await emulator.supabaseRequest(
                    "POST", "/auth/v1/verify", json: ["type": "magiclink", "token_hash": .string(hash)], admin: false)
                refused.append(hash)
            }
            for token in refused {
                let error = try await expectDaemonError("invalid-custom-token", code: 1000) {
                    _ = try await client.signInWithCustomToken(token)
                }
                #expect(error?.message.contains(token) == false)
            }
            let after = try await client.state()
            #expect(after.user?.uid == before.user?.uid && after.status == .anonymous)
            for token in refused { #expect(!daemon.log.contains(token)) }
        }
    }

    @Test("provisioning.token_file: a fresh machine enrols itself at start", arguments: TestBackend.allCases)
    func tokenFileEnrols(backend: TestBackend) async throws {
        let emulator = try await EmulatorProcess.start(backend: backend)
        defer { Task { await emulator.stop() } }
        let account = try await emulator.createAccount(email: "kiosk-7@example.com", password: "secret12")
        let token = try await mint(emulator, uid: account, email: "kiosk-7@example.com")
        let directory = try makeTemporaryDirectory("prov")
        try (token + "\n").write(toFile: directory + "/enroll", atomically: true, encoding: .utf8)
        let daemon = try await DaemonProcess.start(
            emulator: emulator,
            settings: ["provisioning": ["token_file": "\"enroll\""], "merge": ["hold": "0"]],
            environment: ["CREDENTIALS_DIRECTORY": directory], waitFor: nil)
        defer { Task { await daemon.cleanUp() } }
        try await daemon.waitForStatus("authenticated", timeout: .seconds(60))
        #expect(try await daemon.uid() == account)
        #expect(!daemon.log.contains(token))
        // Read once: a restart keeps the account and does not spend the token again.
        try await daemon.stop()
        try await daemon.restart(waitFor: "authenticated")
        #expect(try await daemon.uid() == account)
    }

    @Test("provisioning.token_file with a refused token: the guest stays, the log says why without the token")
    func tokenFileRefused() async throws {
        let emulator = try await EmulatorProcess.start()
        defer { Task { await emulator.stop() } }
        let directory = try makeTemporaryDirectory("prov")
        try "forged-token-value\n".write(toFile: directory + "/enroll", atomically: true, encoding: .utf8)
        let daemon = try await DaemonProcess.start(
            emulator: emulator, settings: ["provisioning": ["token_file": "\"\(directory)/enroll\""]])
        defer { Task { await daemon.cleanUp() } }
        try await eventually("the refusal was logged") { daemon.log.contains("invalid-custom-token") }
        #expect(try await daemon.stateJSON()["status"] as? String == "anonymous")
        #expect(!daemon.log.contains("forged-token-value"))
    }
}
