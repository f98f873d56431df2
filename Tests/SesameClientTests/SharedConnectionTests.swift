import Foundation
import SesameLocalAPI
import Testing

@testable import SesameClient

@Suite("One connection attempt shared by every caller")
struct SharedConnectionTests {
    @Test func concurrentFirstCallsOpenOneConnection() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        try await withThrowingTaskGroup(of: Int64.self) { group in
            for _ in 0..<8 { group.addTask { try await client.state().sequence } }
            for try await sequence in group { #expect(sequence == 1) }
        }
        #expect(await daemon.acceptedCount == 1)
        #expect(await daemon.requests("hello").count == 1)
        await client.close()
        await daemon.stop()
    }

    @Test func afterAFailedAttemptTheNextCallTriesAgain() async throws {
        let daemon = FakeDaemon()
        let client = SesameClient(socketPath: daemon.path, clientName: "tests", maximumRequestsInFlight: 64)
        await #expect(throws: SesameClientError.self) { _ = try await client.state() }
        try await daemon.start()
        #expect(try await client.state().sequence == 1)
        #expect(await daemon.acceptedCount == 1)
        await client.close()
        await daemon.stop()
    }
}
