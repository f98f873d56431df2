import Foundation
import SesameCore
import SesameService
import SesameTesting
import Testing

/// Issue 34, items 3 and 4 in the service: sign-out scopes, and the end of a memory-only
/// session at stop.
@Suite("sign-out scopes and the kiosk's stop")
struct SignOutScopeServiceTests {
    @Test("everywhere from an account: every session ends at the backend, then this one signs out (a fresh guest)")
    func everywhereFromAnAccount() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            _ = try await next(&events) { $0.reason == .anonymousCreated }
            let account = try await harness.service.accounts.createAccount(
                email: "ann@example.com", password: "secret1")
            let uid = try #require(account.user?.uid)
            let after = try await harness.service.accounts.signOut(reset: false, scope: .everywhere)
            #expect(await harness.provider.revokedScopes == [.all])
            #expect(after.status == .anonymous)
            #expect(after.user?.uid != uid)
            #expect(try await next(&events) { $0.reason == .signedOut }.state.status == .signedOut)
            #expect(try await next(&events) { $0.reason != nil }.reason == .anonymousCreated)
            #expect(await harness.provider.accounts[uid] != nil)
        }
    }

    @Test("others from an account: the other sessions end at the backend; this one stays, unchanged and unannounced")
    func othersKeepsThisSession() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            _ = try await next(&events) { $0.reason == .anonymousCreated }
            let account = try await harness.service.accounts.createAccount(email: "bo@example.com", password: "secret1")
            let sequence = account.sequence
            let after = try await harness.service.accounts.signOut(reset: false, scope: .others)
            #expect(await harness.provider.revokedScopes == [.others])
            #expect(after.status == .authenticated)
            #expect(after.user?.uid == account.user?.uid)
            #expect(after.sequence == sequence)
            #expect(try await harness.service.tokens.idToken(forceRefresh: true).uid == account.user?.uid)
        }
    }

    @Test("everywhere from a guest needs reset, and is the reset: the guest's deletion ends every session of it")
    func everywhereFromAGuest() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            let created = try await next(&events) { $0.reason == .anonymousCreated }
            let guest = try #require(created.state.user?.uid)
            await #expect(throws: AuthError(.requiresResetConfirmation)) {
                _ = try await harness.service.accounts.signOut(reset: false, scope: .everywhere)
            }
            let after = try await harness.service.accounts.signOut(reset: true, scope: .everywhere)
            #expect(after.user?.uid != guest)
            #expect(try await next(&events) { $0.reason != nil }.reason == .reset)
            #expect(await harness.provider.accounts[guest] == nil)
            #expect(await harness.provider.revokedScopes.isEmpty)
        }
    }

    @Test("a backend that cannot end other sessions: operation-not-allowed with its message; nothing changes here")
    func refusedByTheBackend() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            _ = try await next(&events) { $0.reason == .anonymousCreated }
            let account = try await harness.service.accounts.createAccount(email: "cy@example.com", password: "secret1")
            for scope in [SignOutScope.others, .everywhere] {
                await harness.provider.failNext("revokeSessions", with: .unsupported("deploy revokeRefreshTokens"))
                await #expect(throws: AuthError(.operationNotAllowed, message: "deploy revokeRefreshTokens")) {
                    _ = try await harness.service.accounts.signOut(reset: false, scope: scope)
                }
            }
            let state = await harness.service.state
            #expect(state.status == .authenticated)
            #expect(state.user?.uid == account.user?.uid)
            #expect(await harness.store.stored?.pendingRevocations.isEmpty == true)
        }
    }

    @Test("offline, others and everywhere fail as network-request-failed and nothing changes here")
    func offlineChangesNothing() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            _ = try await next(&events) { $0.reason == .anonymousCreated }
            let account = try await harness.service.accounts.createAccount(email: "ed@example.com", password: "secret1")
            await harness.provider.setOffline(true)
            for scope in [SignOutScope.others, .everywhere] {
                await #expect(throws: AuthError(.networkRequestFailed)) {
                    _ = try await harness.service.accounts.signOut(reset: false, scope: scope)
                }
            }
            let state = await harness.service.state
            #expect(state.status == .authenticated && state.user?.uid == account.user?.uid)
            #expect(await harness.provider.revokedScopes.isEmpty)
        }
    }

    @Test("at a kiosk's stop a guest is deleted at the backend and no new guest follows")
    func stopDeletesTheGuest() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            let created = try await next(&events) { $0.reason == .anonymousCreated }
            let guest = try #require(created.state.user?.uid)
            #expect(await harness.service.accounts.endSessionAtStop())
            #expect(await harness.provider.accounts[guest] == nil)
            #expect(await harness.service.state.status == .signedOut)
            #expect(await harness.provider.count("signUp") == 1)
        }
    }

    @Test("at a kiosk's stop an account is signed out at the backend; offline, the stop says it could not")
    func stopSignsTheAccountOut() async throws {
        let harness = ServiceHarness()
        try await harness.run { events in
            _ = try await next(&events) { $0.reason == .anonymousCreated }
            let account = try await harness.service.accounts.createAccount(email: "di@example.com", password: "secret1")
            let uid = try #require(account.user?.uid)
            #expect(await harness.service.accounts.endSessionAtStop())
            #expect(await harness.provider.revokedSessions.contains(uid))
            #expect(await harness.provider.accounts[uid] != nil)
            #expect(await harness.service.state.status == .signedOut)
        }
        let offline = ServiceHarness()
        try await offline.run { events in
            _ = try await next(&events) { $0.reason == .anonymousCreated }
            await offline.provider.setOffline(true)
            #expect(await offline.service.accounts.endSessionAtStop() == false)
        }
    }
}
