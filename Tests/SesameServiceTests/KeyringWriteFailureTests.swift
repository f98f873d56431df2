import Foundation
import SesameCore
import SesameService
import SesameTesting
import Testing

/// A full disk or an I/O error on the keyring (docs/configuration.md, "When the keyring cannot
/// be written"): the daemon keeps serving the session it holds, tells clients, and writes the
/// keyring again with backoff until the write succeeds.
@Suite("SessionService: when the keyring cannot be written")
struct KeyringWriteFailureTests {
    @Test("a change that cannot be written is still served and announced, and is written once the disk recovers")
    func failedWriteIsRetried() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            let first = try await next(&events) { $0.reason == .anonymousCreated }
            let firstGuest = try #require(first.state.user?.uid)
            #expect(await harness.store.stored?.session?.uid == firstGuest)

            await harness.store.failSaves(with: SessionStoreError(.io, "No space left on device"))
            let saves = await harness.store.saveCount
            let after = try await harness.service.accounts.signOut(reset: true)
            let secondGuest = try #require(after.user?.uid)
            #expect(secondGuest != firstGuest)
            // Served and announced although not on disk.
            #expect(try await next(&events) { $0.reason == .anonymousCreated }.state.user?.uid == secondGuest)
            #expect(await harness.service.state.user?.uid == secondGuest)
            #expect(await harness.store.stored?.session?.uid == firstGuest)

            // While the disk stays full, the write is tried again (with backoff), and fails again.
            try await eventually {
                harness.clock.advance(by: .seconds(1))
                return await harness.store.failedSaves > 1
            }
            #expect(await harness.store.saveCount == saves)

            // Space again: the next retry writes the state the daemon serves, with no new change.
            await harness.store.failSaves(with: nil)
            try await eventually {
                harness.clock.advance(by: .seconds(30))
                return await harness.store.stored?.session?.uid == secondGuest
            }
            #expect(await harness.service.state.user?.uid == secondGuest)
        }
    }
}
