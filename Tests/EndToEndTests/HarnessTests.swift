import Foundation
import SesameClient
import SesameLocalAPI
import SesameTesting
import Testing

/// The harness's backend-neutral helpers do the same on both backends (the flow suites and the
/// fault matrix rely on them).
@Suite("end-to-end harness", .timeLimit(.minutes(2)))
struct HarnessTests {
    @Test(
        "accounts, federated identities, mail and counters through the emulator, on each backend",
        arguments: TestBackend.allCases)
    func helpers(backend: TestBackend) async throws {
        try await withEmulatorAndDaemon(backend: backend) { emulator, daemon in
            #expect(emulator.backend == backend)
            // The daemon was configured for the emulator's backend, and says which one it uses.
            if let supabase = emulator.supabase {
                #expect(daemon.log.contains("supabase \(supabase.url)"), "\(daemon.log.suffix(2000))")
            } else {
                #expect(try String(contentsOfFile: daemon.configPath, encoding: .utf8).contains("[firebase]"))
            }
            #expect(try await emulator.refreshCount() == 0)
            let guest = try #require(try await daemon.uid())
            #expect(
                try await emulator.accountInfo(guest) == BackendAccount(email: nil, providers: [], isAnonymous: true))

            let uid = try await emulator.createAccount(email: "h@example.com", password: "secret-123")
            #expect(
                try await emulator.accountInfo(uid)
                    == BackendAccount(email: "h@example.com", providers: ["password"], isAnonymous: false))
            let federated = try await emulator.createFederatedAccount(
                sub: "h-1", email: "f@example.com", verified: true)
            #expect(try await emulator.accountInfo(federated)?.providers == ["google.com"])
            try await emulator.deleteAccount(uid)
            #expect(try await !emulator.accountExists(uid))
            #expect(try await emulator.accountInfo(uid) == nil)

            let client = daemon.client()
            defer { Task { await client.close() } }
            _ = try await client.idToken(forceRefresh: true)
            #expect(try await emulator.refreshCount() == 1)
            _ = try await client.sendSignInLink(email: "m@example.com")
            #expect(try await emulator.signInLink(email: "m@example.com") != nil)
            if backend == .supabase { #expect(try await emulator.oneTimeCode(email: "m@example.com")?.count == 6) }

            try await emulator.faults([
                "failNext": 1, "failStatus": 503, "pathPrefix": .string(emulator.refreshPathPrefix),
            ])
            await #expect(throws: SesameClientError.self) { _ = try await client.idToken(forceRefresh: true) }
            try await emulator.clearFaults()
            #expect(try await emulator.refreshCount() == 0)

            // answerDelayMs is validated and reported like every fault field.
            let (refused, error) = try await emulator.request(
                "POST", "/sesame/v1/faults", json: ["answerDelayMs": -1], port: emulator.backendPort)
            #expect(refused == 400 && error["error"]?.stringValue == "answerDelayMs must be an integer >= 0")
            let (_, report) = try await emulator.request(
                "POST", "/sesame/v1/faults", json: ["answerDelayMs": 5], port: emulator.backendPort)
            #expect(report["faults"]?["answerDelayMs"] == 5 && report["answersHeld"] == 0)
            try await emulator.clearFaults()
        }
    }
}
