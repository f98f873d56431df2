import Foundation
import SesameCore
import SesameService
import SesameTesting
import Testing

/// Issue 34, item 3 in the service: sign-out scopes.
@Suite("sign-out scopes")
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
}
