import Foundation
import Logging
import SesameCore
import SesameService
import SesameTesting
import Testing

/// Crash recovery: a keyring with pending username steps, loaded into a fresh service.
@Suite("Usernames in the service: recovery after a crash")
struct UsernameRecoveryServiceTests {
    /// An account with the name `old_name`, then the keyring and directory as they were.
    private func accountWithName() async throws -> (
        ManualClock, FakeRemoteAuthProvider, FakeUsernameDirectory, PersistedState, String
    ) {
        let h = UsernameHarness()
        var uid = ""
        try await h.run { events in
            uid = try #require(try await h.signUp(&events, username: "old_name").user?.uid)
        }
        return (h.clock, h.provider, h.directory, try #require(await h.store.stored), uid)
    }

    @Test("crash between claim and details write: finished on restart, the old name released")
    func recoverAfterClaim() async throws {
        var (clock, provider, directory, stored, uid) = try await accountWithName()
        // The rename to New_Name had claimed its key when the daemon died.
        stored.pendingUsernameSteps = [
            UsernameStep(kind: .writeDetails, uid: uid, key: "new_name", username: "New_Name"),
            UsernameStep(kind: .release, uid: uid, key: "old_name", username: "old_name"),
        ]
        await directory.put(key: "new_name", uid: uid)
        let h = UsernameHarness(stored: stored, clock: clock, provider: provider, directory: directory)
        try await h.run { _ in
            try await eventually { await h.store.stored?.pendingUsernameSteps == [] }
            #expect(await directory.usernames == ["new_name": uid])
            #expect(await directory.records[uid] == UsernameDetails(username: "New_Name", email: "ann@example.com"))
            #expect(await h.service.state.user?.username == "New_Name")
        }
    }

    @Test("crash before the claim landed: the step is dropped and the old name kept")
    func recoverBeforeClaim() async throws {
        var (clock, provider, directory, stored, uid) = try await accountWithName()
        stored.pendingUsernameSteps = [
            UsernameStep(kind: .writeDetails, uid: uid, key: "new_name", username: "New_Name"),
            UsernameStep(kind: .release, uid: uid, key: "old_name", username: "old_name"),
        ]
        let h = UsernameHarness(stored: stored, clock: clock, provider: provider, directory: directory)
        try await h.run { _ in
            try await eventually { await h.store.stored?.pendingUsernameSteps == [] }
            #expect(await directory.usernames == ["old_name": uid])
            #expect(await directory.records[uid]?.username == "old_name")
            #expect(await h.service.state.user?.username == "old_name")
        }
    }

    @Test("crash after the details write: the old name is released on restart")
    func recoverRelease() async throws {
        var (clock, provider, directory, stored, uid) = try await accountWithName()
        stored.pendingUsernameSteps = [UsernameStep(kind: .release, uid: uid, key: "older", username: "Older")]
        await directory.put(key: "older", uid: uid)
        let h = UsernameHarness(stored: stored, clock: clock, provider: provider, directory: directory)
        try await h.run { _ in
            try await eventually { await h.store.stored?.pendingUsernameSteps == [] }
            #expect(await directory.usernames == ["old_name": uid])
        }
    }

    @Test("crash after a guest claimed a name but before the link: the name is given back on restart")
    func recoverGuestClaim() async throws {
        let first = UsernameHarness()
        var guest = ""
        try await first.run { events in
            guest = try #require(try await next(&events) { $0.reason == .anonymousCreated }.state.user?.uid)
        }
        var stored = try #require(await first.store.stored)
        stored.pendingUsernameSteps = [UsernameStep(kind: .writeDetails, uid: guest, key: "wanted", username: "Wanted")]
        await first.directory.put(key: "wanted", uid: guest)
        let h = UsernameHarness(
            stored: stored, clock: first.clock, provider: first.provider, directory: first.directory)
        try await h.run { _ in
            try await eventually { await h.store.stored?.pendingUsernameSteps == [] }
            #expect(await h.directory.usernames.isEmpty)
            #expect(await h.service.state.status == .anonymous)
        }
    }

    @Test("crash while the directory is down: retried until it is back")
    func recoverWhenDirectoryReturns() async throws {
        var (clock, provider, directory, stored, uid) = try await accountWithName()
        stored.pendingUsernameSteps = [
            UsernameStep(kind: .writeDetails, uid: uid, key: "new_name", username: "New_Name"),
            UsernameStep(kind: .release, uid: uid, key: "old_name", username: "old_name"),
        ]
        await directory.put(key: "new_name", uid: uid)
        await directory.setOffline(true)
        let h = UsernameHarness(stored: stored, clock: clock, provider: provider, directory: directory)
        try await h.run { _ in
            try await eventually { await directory.count("owner") >= 1 }
            #expect(await h.store.stored?.pendingUsernameSteps.count == 2)
            await directory.setOffline(false)
            try await h.advanceUntil { await h.store.stored?.pendingUsernameSteps == [] }
            #expect(await directory.usernames == ["new_name": uid])
            #expect(await directory.records[uid]?.username == "New_Name")
        }
    }
}
