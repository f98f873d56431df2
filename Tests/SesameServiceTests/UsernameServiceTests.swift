import Foundation
import Logging
import SesameCore
import SesameService
import SesameTesting
import Testing

/// A service over the fake backend, a fake username directory and an in-memory store.
struct UsernameHarness {
    let clock: ManualClock
    let provider: FakeRemoteAuthProvider
    let directory: FakeUsernameDirectory
    let store: InMemorySessionStore
    let service: SessionService

    init(
        stored: PersistedState? = nil, clock: ManualClock = ManualClock(), provider: FakeRemoteAuthProvider? = nil,
        directory: FakeUsernameDirectory? = FakeUsernameDirectory(),
        configuration: SessionServiceConfiguration = .init()
    ) {
        self.clock = clock
        self.provider = provider ?? FakeRemoteAuthProvider(clock: clock)
        self.directory = directory ?? FakeUsernameDirectory()
        store = InMemorySessionStore(stored)
        service = SessionService(
            provider: self.provider, store: store, directory: directory == nil ? nil : self.directory, clock: clock,
            configuration: configuration, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
    }

    func run(_ body: (inout AsyncStream<SessionEvent>.Iterator) async throws -> Void) async throws {
        // Opened before the keyring is loaded, so no event is missed; the snapshot is skipped.
        var events = await service.events().makeAsyncIterator()
        _ = await events.next()
        try await service.start()
        let loop = Task { await service.run() }
        defer { loop.cancel() }
        try await body(&events)
        await service.shutdown()
        await loop.value
    }

    /// Waits for the anonymous user, then links an email account to it.
    @discardableResult
    func signUp(
        _ events: inout AsyncStream<SessionEvent>.Iterator, email: String = "ann@example.com", username: String? = nil
    ) async throws -> AuthState {
        _ = try await next(&events) { $0.reason == .anonymousCreated }
        return try await service.createAccount(email: email, password: "secret1", username: username)
    }

    /// Advances the clock until `condition` holds (for retries planned on the clock).
    func advanceUntil(_ condition: () async -> Bool) async throws {
        for _ in 0..<400 {
            if await condition() { return }
            clock.advance(seconds: 2)
            try await Task.sleep(for: .milliseconds(10))
        }
        throw TimedOut()
    }
}

func expectError(_ reason: AuthError.Reason, _ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation)
    async
{
    do {
        try await body()
        Issue.record("no error; expected \(reason.rawValue)", sourceLocation: sourceLocation)
    } catch let error as AuthError {
        #expect(error.reason == reason, sourceLocation: sourceLocation)
    } catch {
        Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
    }
}

@Suite("Usernames in the service")
struct UsernameServiceTests {
    @Test("set, then rename: the new key is claimed, details follow, the old key is released; userUpdated carries it")
    func setAndRename() async throws {
        let h = UsernameHarness()
        try await h.run { events in
            let state = try await h.signUp(&events)
            let uid = try #require(state.user?.uid)
            let set = try await h.service.setUsername("NASA_Fan")
            #expect(set.user?.username == "NASA_Fan")
            let updated = try await next(&events) {
                if case .userUpdated = $0.kind { return $0.state.user?.username == "NASA_Fan" }
                return false
            }
            #expect(updated.state.needsUsername == false)
            #expect(await h.directory.usernames["nasa_fan"] == uid)
            #expect(await h.directory.records[uid] == UsernameDetails(username: "NASA_Fan", email: "ann@example.com"))

            // Same key, other case: only the display case changes.
            _ = try await h.service.setUsername("nasa_FAN")
            #expect(await h.service.state.user?.username == "nasa_FAN")
            #expect(await h.directory.usernames == ["nasa_fan": uid])

            _ = try await h.service.setUsername("Ann.Lee")
            #expect(await h.directory.usernames == ["ann,lee": uid])
            #expect(await h.directory.records[uid]?.username == "Ann.Lee")
            #expect(await h.store.stored?.pendingUsernameSteps == [])
            #expect(await h.store.stored?.session?.user.username == "Ann.Lee")
        }
    }

    @Test("a name held by another uid is username-taken and changes nothing")
    func lostRace() async throws {
        let h = UsernameHarness()
        try await h.run { events in
            let uid = try #require(try await h.signUp(&events).user?.uid)
            _ = try await h.service.setUsername("mine")
            await h.directory.put(key: "taken", uid: "someone-else")
            await expectError(.usernameTaken) { _ = try await h.service.setUsername("TAKEN") }
            #expect(await h.directory.usernames == ["mine": uid, "taken": "someone-else"])
            #expect(await h.service.state.user?.username == "mine")
            #expect(await h.store.stored?.pendingUsernameSteps == [])
        }
    }

    @Test("invalid, reserved, anonymous and signed-out callers are refused")
    func refusals() async throws {
        let h = UsernameHarness(configuration: .init(anonymousFirst: true, reservedUsernames: ["admin"]))
        try await h.run { events in
            _ = try await next(&events) { $0.reason == .anonymousCreated }
            await expectError(.requiresAccount) { _ = try await h.service.setUsername("guest_name") }
            _ = try await h.service.createAccount(email: "bo@example.com", password: "secret1")
            await expectError(.invalidUsername) { _ = try await h.service.setUsername("ab") }
            await expectError(.invalidUsername) { _ = try await h.service.setUsername("NASA Fan") }
            await expectError(.invalidUsername) { _ = try await h.service.setUsername("p\u{430}ypal") }
            await expectError(.usernameReserved) { _ = try await h.service.setUsername("ＡＤＭＩＮ") }
            #expect(await h.directory.usernames.isEmpty)
        }
    }

    @Test("the details write fails: a backend error, the new claim is given back, the old name kept")
    func detailsWriteFails() async throws {
        let h = UsernameHarness()
        try await h.run { events in
            let uid = try #require(try await h.signUp(&events).user?.uid)
            _ = try await h.service.setUsername("first")
            await h.directory.failNext("setDetails")
            await expectError(.networkRequestFailed) { _ = try await h.service.setUsername("second") }
            #expect(await h.directory.usernames == ["first": uid])
            #expect(await h.directory.records[uid]?.username == "first")
            #expect(await h.service.state.user?.username == "first")
            #expect(await h.store.stored?.pendingUsernameSteps == [])
        }
    }

    @Test("details write and the give-back both fail: the step is kept and finished later")
    func giveBackRetried() async throws {
        let h = UsernameHarness()
        try await h.run { events in
            let uid = try #require(try await h.signUp(&events).user?.uid)
            _ = try await h.service.setUsername("first")
            await h.directory.failNext("setDetails")
            await h.directory.failNext("release")
            await expectError(.networkRequestFailed) { _ = try await h.service.setUsername("second") }
            #expect(await h.directory.usernames["second"] == uid)
            #expect(await h.store.stored?.pendingUsernameSteps.map(\.kind) == [.release])
            try await h.advanceUntil { await h.store.stored?.pendingUsernameSteps == [] }
            #expect(await h.directory.usernames == ["first": uid])
            #expect(await h.directory.records[uid]?.username == "first")
        }
    }

    @Test("the old name's release fails: the rename succeeds and the release is retried")
    func releaseRetried() async throws {
        let h = UsernameHarness()
        try await h.run { events in
            let uid = try #require(try await h.signUp(&events).user?.uid)
            _ = try await h.service.setUsername("first")
            await h.directory.failNext("release")
            _ = try await h.service.setUsername("second")
            #expect(await h.directory.usernames == ["first": uid, "second": uid])
            try await h.advanceUntil { await h.directory.usernames == ["second": uid] }
            try await eventually { await h.store.stored?.pendingUsernameSteps == [] }
        }
    }

    @Test("directory down during the claim: a backend error and nothing claimed")
    func directoryDown() async throws {
        let h = UsernameHarness()
        try await h.run { events in
            let uid = try #require(try await h.signUp(&events).user?.uid)
            _ = try await h.service.setUsername("first")
            await h.directory.setOffline(true)
            await expectError(.networkRequestFailed) { _ = try await h.service.setUsername("second") }
            await expectError(.networkRequestFailed) { _ = try await h.service.checkUsername("second") }
            await h.directory.setOffline(false)
            try await h.advanceUntil { await h.store.stored?.pendingUsernameSteps == [] }
            #expect(await h.directory.usernames == ["first": uid])
            #expect(await h.service.state.user?.username == "first")
        }
    }

    @Test("checkUsername: invalid, reserved, taken, the caller's own, free")
    func check() async throws {
        let h = UsernameHarness()
        try await h.run { events in
            try await h.signUp(&events, username: "Own_Name")
            await h.directory.put(key: "other", uid: "someone-else")
            let cases: [(String, Bool, AuthError.Reason?)] = [
                ("a", false, .invalidUsername), ("x@y", false, .invalidUsername), ("root", false, .usernameReserved),
                ("OTHER", false, .usernameTaken), ("own_name", true, nil), ("free_one", true, nil),
            ]
            for (name, available, reason) in cases {
                let check = try await h.service.checkUsername(name)
                #expect(check.available == available, "\(name)")
                #expect(check.reason == reason, "\(name)")
            }
        }
    }

    @Test("sign-in by username in any case; every miss is invalid-login-credentials")
    func signInByUsername() async throws {
        let h = UsernameHarness()
        try await h.run { events in
            let uid = try #require(try await h.signUp(&events, username: "NASA_Fan").user?.uid)
            #expect(await h.directory.records[uid] == UsernameDetails(username: "NASA_Fan", email: "ann@example.com"))
            _ = try await h.service.signOut(reset: false)
            let outcome = try await h.service.signIn(identifier: "nasa_FAN", password: "secret1")
            #expect(outcome.state.user?.uid == uid)
            #expect(outcome.state.user?.username == "NASA_Fan")
            await expectError(.invalidLoginCredentials) { _ = try await h.service.signIn(identifier: "nasa_fan", password: "wrong12") }
            await expectError(.invalidLoginCredentials) { _ = try await h.service.signIn(identifier: "nobody", password: "secret1") }
            await expectError(.invalidLoginCredentials) { _ = try await h.service.signIn(identifier: "a b", password: "secret1") }
            await h.directory.put(key: "orphan", uid: "ghost")
            await expectError(.invalidLoginCredentials) { _ = try await h.service.signIn(identifier: "orphan", password: "secret1") }

            try await h.service.sendPasswordReset(identifier: "NASA_FAN")
            #expect(await h.provider.count("sendPasswordReset") == 1)
            await expectError(.usernameNotFound) { try await h.service.sendPasswordReset(identifier: "nobody") }
            await expectError(.usernameNotFound) { try await h.service.sendPasswordReset(identifier: "orphan") }
        }
    }

    @Test("createAccount with a taken name changes nothing; a failed link gives the claim back")
    func createAccountClaims() async throws {
        let h = UsernameHarness()
        try await h.run { events in
            _ = try await next(&events) { $0.reason == .anonymousCreated }
            let guest = try #require(await h.service.state.user?.uid)
            await h.directory.put(key: "taken", uid: "someone-else")
            await expectError(.usernameTaken) {
                _ = try await h.service.createAccount(email: "c@example.com", password: "secret1", username: "Taken")
            }
            _ = await h.provider.addAccount(email: "used@example.com", password: "secret1")
            await expectError(.emailAlreadyInUse) {
                _ = try await h.service.createAccount(email: "used@example.com", password: "secret1", username: "Wanted")
            }
            #expect(await h.directory.usernames == ["taken": "someone-else"])
            #expect(await h.service.state.user?.uid == guest)
            #expect(await h.service.state.status == .anonymous)
            #expect(await h.store.stored?.pendingUsernameSteps == [])
        }
    }

    @Test("deleteAccount releases the name")
    func deleteReleases() async throws {
        let h = UsernameHarness()
        try await h.run { events in
            try await h.signUp(&events, username: "Leaving")
            #expect(await h.directory.usernames.count == 1)
            _ = try await h.service.deleteAccount()
            #expect(await h.directory.usernames.isEmpty)
        }
    }

    @Test("with the directory down, deleteAccount fails with a backend error and deletes nothing")
    func deleteWithDirectoryDown() async throws {
        let h = UsernameHarness()
        try await h.run { events in
            try await h.signUp(&events, username: "Staying")
            let uid = try #require(await h.service.state.user?.uid)
            await h.directory.setOffline(true)
            let error = await #expect(throws: AuthError.self) { _ = try await h.service.deleteAccount() }
            #expect(error?.category == .backend)
            #expect(await h.provider.accounts[uid] != nil)
            #expect(await h.service.state.user?.uid == uid)
            await h.directory.setOffline(false)
            #expect(await h.directory.usernames.count == 1)
            _ = try await h.service.deleteAccount()
            #expect(await h.provider.accounts[uid] == nil)
            #expect(await h.directory.usernames.isEmpty)
        }
    }

    @Test("needsUsername with usernames.required, filled from the directory on sign-in")
    func needsUsername() async throws {
        let h = UsernameHarness(configuration: .init(usernamesRequired: true))
        try await h.run { events in
            let state = try await h.signUp(&events)
            #expect(state.needsUsername)
            #expect(try await h.service.setUsername("Named").needsUsername == false)
            _ = try await h.service.signOut(reset: false)
            let back = try await h.service.signIn(identifier: "ann@example.com", password: "secret1")
            #expect(back.state.user?.username == "Named")
            #expect(back.state.needsUsername == false)
        }
    }

    @Test("a details record with a stale email is brought in step on reload")
    func staleEmailSynced() async throws {
        let h = UsernameHarness()
        try await h.run { events in
            let uid = try #require(try await h.signUp(&events, username: "Synced").user?.uid)
            await h.directory.put(details: UsernameDetails(username: "Synced", email: "old@example.com"), of: uid)
            _ = try await h.service.reload()
            try await eventually { await h.directory.records[uid]?.email == "ann@example.com" }
            try await eventually { await h.store.stored?.pendingUsernameSteps == [] }
            #expect(await h.directory.records[uid]?.username == "Synced")
        }
    }

    @Test("usernames off: operation-not-allowed")
    func off() async throws {
        let h = UsernameHarness(directory: nil)
        try await h.run { events in
            try await h.signUp(&events)
            await expectError(.operationNotAllowed) { _ = try await h.service.setUsername("name") }
            await expectError(.operationNotAllowed) { _ = try await h.service.checkUsername("name") }
            await expectError(.operationNotAllowed) { _ = try await h.service.signIn(identifier: "name", password: "secret1") }
            await expectError(.operationNotAllowed) { try await h.service.sendPasswordReset(identifier: "name") }
            await expectError(.operationNotAllowed) {
                _ = try await h.service.createAccount(email: "x@example.com", password: "secret1", username: "name")
            }
            #expect(await h.service.state.needsUsername == false)
        }
    }

    // MARK: - Crash recovery: a keyring with pending steps, loaded into a fresh service

    /// An account with the name `old_name`, then the keyring and directory as they were.
    private func accountWithName() async throws -> (ManualClock, FakeRemoteAuthProvider, FakeUsernameDirectory, PersistedState, String) {
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
        let h = UsernameHarness(stored: stored, clock: first.clock, provider: first.provider, directory: first.directory)
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
