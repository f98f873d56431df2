import Foundation
import Logging
import SesameCore
import SesameService
import SesameTesting
import Testing

/// The username in the other flows: sign-in by name, createAccount, deleteAccount, needsUsername,
/// the details record's email, usernames off.
@Suite("Usernames in the service: the other flows")
struct UsernameFlowServiceTests {
    @Test("sign-in by username in any case; every miss is invalid-login-credentials")
    func signInByUsername() async throws {
        let h = UsernameHarness()
        try await h.run { events in
            let uid = try #require(try await h.signUp(&events, username: "NASA_Fan").user?.uid)
            #expect(await h.directory.records[uid] == UsernameDetails(username: "NASA_Fan", email: "ann@example.com"))
            _ = try await h.service.accounts.signOut(reset: false)
            let outcome = try await h.service.accounts.signIn(identifier: "nasa_FAN", password: "secret1")
            #expect(outcome.state.user?.uid == uid)
            #expect(outcome.state.user?.username == "NASA_Fan")
            // Signed out again: a sign-in over an account is refused before anything else.
            _ = try await h.service.accounts.signOut(reset: false)
            await expectError(.invalidLoginCredentials) {
                _ = try await h.service.accounts.signIn(identifier: "nasa_fan", password: "wrong12")
            }
            await expectError(.invalidLoginCredentials) {
                _ = try await h.service.accounts.signIn(identifier: "nobody", password: "secret1")
            }
            await expectError(.invalidLoginCredentials) {
                _ = try await h.service.accounts.signIn(identifier: "a b", password: "secret1")
            }
            await h.directory.put(key: "orphan", uid: "ghost")
            await expectError(.invalidLoginCredentials) {
                _ = try await h.service.accounts.signIn(identifier: "orphan", password: "secret1")
            }

            try await h.service.accounts.sendPasswordReset(identifier: "NASA_FAN")
            #expect(await h.provider.count("sendPasswordReset") == 1)
            await expectError(.usernameNotFound) {
                try await h.service.accounts.sendPasswordReset(identifier: "nobody")
            }
            await expectError(.usernameNotFound) {
                try await h.service.accounts.sendPasswordReset(identifier: "orphan")
            }
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
                _ = try await h.service.accounts.createAccount(
                    email: "c@example.com", password: "secret1", username: "Taken")
            }
            _ = await h.provider.addAccount(email: "used@example.com", password: "secret1")
            await expectError(.emailAlreadyInUse) {
                _ = try await h.service.accounts.createAccount(
                    email: "used@example.com", password: "secret1", username: "Wanted")
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
            _ = try await h.service.accounts.deleteAccount()
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
            let error = await #expect(throws: AuthError.self) { _ = try await h.service.accounts.deleteAccount() }
            #expect(error?.category == .backend)
            #expect(await h.provider.accounts[uid] != nil)
            #expect(await h.service.state.user?.uid == uid)
            await h.directory.setOffline(false)
            #expect(await h.directory.usernames.count == 1)
            _ = try await h.service.accounts.deleteAccount()
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
            #expect(try await h.service.usernames.setUsername("Named").needsUsername == false)
            _ = try await h.service.accounts.signOut(reset: false)
            let back = try await h.service.accounts.signIn(identifier: "ann@example.com", password: "secret1")
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
            _ = try await h.service.accounts.reload()
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
            await expectError(.operationNotAllowed) { _ = try await h.service.usernames.setUsername("name") }
            await expectError(.operationNotAllowed) { _ = try await h.service.usernames.checkUsername("name") }
            _ = try await h.service.accounts.signOut(reset: false)
            await expectError(.operationNotAllowed) {
                _ = try await h.service.accounts.signIn(identifier: "name", password: "secret1")
            }
            await expectError(.operationNotAllowed) {
                try await h.service.accounts.sendPasswordReset(identifier: "name")
            }
            await expectError(.operationNotAllowed) {
                _ = try await h.service.accounts.createAccount(
                    email: "x@example.com", password: "secret1", username: "name")
            }
            #expect(await h.service.state.needsUsername == false)
        }
    }
}
