import Foundation
import Logging
import SesameCore
import SesameService
import SesameTesting
import Testing

/// setUsername and checkUsername: claims, renames, lost races, failures and their undo.
@Suite("Usernames in the service: set and check")
struct UsernameServiceTests {
    @Test("set, then rename: the new key is claimed, details follow, the old key is released; userUpdated carries it")
    func setAndRename() async throws {
        let h = UsernameHarness()
        try await h.run { events in
            let state = try await h.signUp(&events)
            let uid = try #require(state.user?.uid)
            let set = try await h.service.usernames.setUsername("NASA_Fan")
            #expect(set.user?.username == "NASA_Fan")
            let updated = try await next(&events) {
                if case .userUpdated = $0.kind { return $0.state.user?.username == "NASA_Fan" }
                return false
            }
            #expect(updated.state.needsUsername == false)
            #expect(await h.directory.usernames["nasa_fan"] == uid)
            #expect(await h.directory.records[uid] == UsernameDetails(username: "NASA_Fan", email: "ann@example.com"))

            // Same key, other case: only the display case changes.
            _ = try await h.service.usernames.setUsername("nasa_FAN")
            #expect(await h.service.state.user?.username == "nasa_FAN")
            #expect(await h.directory.usernames == ["nasa_fan": uid])

            _ = try await h.service.usernames.setUsername("Ann.Lee")
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
            _ = try await h.service.usernames.setUsername("mine")
            await h.directory.put(key: "taken", uid: "someone-else")
            await expectError(.usernameTaken) { _ = try await h.service.usernames.setUsername("TAKEN") }
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
            await expectError(.requiresAccount) { _ = try await h.service.usernames.setUsername("guest_name") }
            _ = try await h.service.accounts.createAccount(email: "bo@example.com", password: "secret1")
            await expectError(.invalidUsername) { _ = try await h.service.usernames.setUsername("ab") }
            await expectError(.invalidUsername) { _ = try await h.service.usernames.setUsername("NASA Fan") }
            await expectError(.invalidUsername) { _ = try await h.service.usernames.setUsername("p\u{430}ypal") }
            await expectError(.usernameReserved) { _ = try await h.service.usernames.setUsername("ＡＤＭＩＮ") }
            #expect(await h.directory.usernames.isEmpty)
        }
    }

    @Test("the details write fails: a backend error, the new claim is given back, the old name kept")
    func detailsWriteFails() async throws {
        let h = UsernameHarness()
        try await h.run { events in
            let uid = try #require(try await h.signUp(&events).user?.uid)
            _ = try await h.service.usernames.setUsername("first")
            await h.directory.failNext("setDetails")
            await expectError(.networkRequestFailed) { _ = try await h.service.usernames.setUsername("second") }
            #expect(await h.directory.usernames == ["first": uid])
            #expect(await h.directory.records[uid]?.username == "first")
            #expect(await h.service.state.user?.username == "first")
            #expect(await h.store.stored?.pendingUsernameSteps == [])
        }
    }

    @Test("the details write landed but its answer was lost: read back, the rename completes, the old name released")
    func detailsAnswerLost() async throws {
        let h = UsernameHarness()
        try await h.run { events in
            let uid = try #require(try await h.signUp(&events).user?.uid)
            _ = try await h.service.usernames.setUsername("first")
            await h.directory.loseNextAnswer("setDetails")
            let state = try await h.service.usernames.setUsername("second")
            #expect(state.user?.username == "second")
            #expect(await h.directory.usernames == ["second": uid])
            #expect(await h.directory.records[uid]?.username == "second")
            #expect(await h.store.stored?.pendingUsernameSteps == [])
        }
    }

    @Test("details write and the give-back both fail: the step is kept and finished later")
    func giveBackRetried() async throws {
        let h = UsernameHarness()
        try await h.run { events in
            let uid = try #require(try await h.signUp(&events).user?.uid)
            _ = try await h.service.usernames.setUsername("first")
            await h.directory.failNext("setDetails")
            await h.directory.failNext("release")
            await expectError(.networkRequestFailed) { _ = try await h.service.usernames.setUsername("second") }
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
            _ = try await h.service.usernames.setUsername("first")
            await h.directory.failNext("release")
            _ = try await h.service.usernames.setUsername("second")
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
            _ = try await h.service.usernames.setUsername("first")
            await h.directory.setOffline(true)
            await expectError(.networkRequestFailed) { _ = try await h.service.usernames.setUsername("second") }
            await expectError(.networkRequestFailed) { _ = try await h.service.usernames.checkUsername("second") }
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
                let check = try await h.service.usernames.checkUsername(name)
                #expect(check.available == available, "\(name)")
                #expect(check.reason == reason, "\(name)")
            }
        }
    }
}
