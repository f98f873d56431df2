import SesameLocalAPI
import Testing

@testable import SesameEmulator

@Suite("Concurrent clients")
struct ConcurrencyTests {
    @Test func racingSignUpsForOneEmailCreateOneAccount() async throws {
        try await TestEmulator.with { emu in
            for round in 0..<20 {
                let email = "race-\(round)@example.com"
                let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<4 {
                        group.addTask {
                            try await emu.auth("accounts:signUp", ["email": .string(email), "password": "secret-pw"])
                                .status
                        }
                    }
                    var all: [Int] = []
                    for try await status in group { all.append(status) }
                    return all.sorted()
                }
                #expect(statuses == [200, 400, 400, 400], "round \(round)")
            }
        }
    }

    @Test func racingConditionalDeletesHaveExactlyOneWinner() async throws {
        try await TestEmulator.with { emu in
            for round in 0..<50 {
                let path = "/locks/lock-\(round).json"
                let put = try await emu.database("PUT", path, ["owner": "a"], headers: [("if-match", "null_etag")])
                let etag = try #require(put.header("etag"))
                async let first = emu.database("DELETE", path, headers: [("if-match", etag)])
                async let second = emu.database("PUT", path, ["owner": "b"], headers: [("if-match", etag)])
                let statuses = try await [first.status, second.status].sorted()
                #expect(statuses == [200, 412], "round \(round)")
            }
        }
    }

    @Test func stopIsIdempotent() async throws {
        let emulator = try await SesameEmulator.start(EmulatorConfiguration(authPort: 0, databasePort: 0))
        await emulator.stop()
        await emulator.stop()
        try await emulator.waitUntilStopped()
    }
}
