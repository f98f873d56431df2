import Foundation
import SesameCore
import SesameService
import SesameTesting
import Testing

/// The browser flow on the fake backend: the test plays the browser's callback.
@Suite("SessionService: browser sign-in flows")
struct BrowserFlowServiceTests {
    @Test("a new identity from a guest: linked (uid kept); the flow completes for its waiters too")
    func linked() async throws {
        let harness = SignInFlowHarness()
        try await harness.run { events in
            let guest = try #require(await harness.service.state.user?.uid)
            let flow = try await harness.service.signIn.start(harness.browser())
            #expect(flow.kind == .browser && flow.authorizationUrl != nil && flow.userCode == nil)
            #expect(flow.expiresAt == harness.clock.date.addingTimeInterval(900) && flow.intervalSeconds == nil)
            let waiter = harness.waiter(flow.flowId)
            let outcome = try await harness.service.signIn.complete(
                flowId: flow.flowId, callbackUrl: try await harness.callback(identity: "hana"))
            #expect(
                outcome.merge == nil && outcome.state.user?.uid == guest && outcome.state.user?.isAnonymous == false)
            #expect(try await waiter.value.get().state.user?.uid == guest)
            let seen = try await collect(&events) { $0.flow?.status == .completed }
            #expect(seen.contains { $0.reason == .linked })
        }
    }

    @Test("an identity another account has: belongsToAnotherAccount, signed in to it and merged")
    func belongsToAnotherAccountMerges() async throws {
        let harness = SignInFlowHarness()
        try await harness.run { _ in
            let guest = try #require(await harness.service.state.user?.uid)
            let owner = await harness.provider.addFederatedAccount(providerId: "google.com", idToken: "ivan")
            let flow = try await harness.service.signIn.start(harness.browser())
            let outcome = try await harness.service.signIn.complete(
                flowId: flow.flowId, callbackUrl: try await harness.callback(identity: "ivan"))
            #expect(outcome.merge?.fromUid == guest && outcome.merge?.toUid == owner)
            #expect(outcome.state.user?.uid == owner)
        }
    }

    @Test(
        "a callback with another state, or not to the redirectUri: invalid-credential, nothing changes, the flow stays pending"
    )
    func stateMismatch() async throws {
        let harness = SignInFlowHarness()
        try await harness.run { _ in
            let before = await harness.service.state
            let flow = try await harness.service.signIn.start(harness.browser())
            let forged = try await harness.callback(identity: "mallory", state: "forged")
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.signIn.complete(flowId: flow.flowId, callbackUrl: forged)
                } == .invalidCredential)
            let state = try #require(await harness.provider.lastBrowserStart?.state)
            let elsewhere = "http://127.0.0.1:9999/callback?code=mallory&state=\(state)"
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.signIn.complete(flowId: flow.flowId, callbackUrl: elsewhere)
                } == .invalidCredential)
            #expect(await harness.provider.count("completeBrowserSignIn") == 0)
            let after = await harness.service.state
            #expect(after.user == before.user && after.signInPrompt?.flowId == flow.flowId)
            let genuine = try await harness.callback(identity: "judy")
            _ = try await harness.service.signIn.complete(flowId: flow.flowId, callbackUrl: genuine)
            #expect(await harness.service.state.user?.uid == before.user?.uid)
        }
    }

    @Test("a replayed callback: invalid-credential, nothing changes")
    func replay() async throws {
        let harness = SignInFlowHarness()
        try await harness.run { _ in
            let flow = try await harness.service.signIn.start(harness.browser())
            let callback = try await harness.callback(identity: "kim")
            _ = try await harness.service.signIn.complete(flowId: flow.flowId, callbackUrl: callback)
            let before = await harness.service.state
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.signIn.complete(flowId: flow.flowId, callbackUrl: callback)
                } == .invalidCredential)
            #expect(await harness.service.state == before)
            #expect(await harness.provider.count("completeBrowserSignIn") == 1)
        }
    }

    @Test("error=access_denied: access-denied, the flow failed, the guest intact; another error is invalid-credential")
    func errorCallbacks() async throws {
        let harness = SignInFlowHarness()
        try await harness.run { events in
            let guest = await harness.service.state.user
            let flow = try await harness.service.signIn.start(harness.browser())
            let state = try #require(await harness.provider.lastBrowserStart?.state)
            let denied = "\(SignInFlowHarness.redirect)?error=access_denied&state=\(state)"
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.signIn.complete(flowId: flow.flowId, callbackUrl: denied)
                } == .accessDenied)
            #expect(try await next(&events) { $0.flow?.status.isFinal == true }.flow?.status == .failed)
            #expect(await harness.service.state.user == guest)
            #expect(await harness.waiter(flow.flowId).value.reason == .accessDenied)

            let second = try await harness.service.signIn.start(harness.browser())
            let secondState = try #require(await harness.provider.lastBrowserStart?.state)
            let broken = "\(SignInFlowHarness.redirect)?error=server_error&state=\(secondState)"
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.signIn.complete(flowId: second.flowId, callbackUrl: broken)
                } == .invalidCredential)
            #expect(await harness.provider.count("completeBrowserSignIn") == 0)
        }
    }

    @Test("completeSignIn on a device flow: invalid-credential, the flow goes on")
    func completeOnDeviceFlow() async throws {
        let harness = SignInFlowHarness()
        try await harness.run { _ in
            let flow = try await harness.service.signIn.start(harness.device())
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.signIn.complete(
                        flowId: flow.flowId, callbackUrl: SignInFlowHarness.redirect + "?code=x")
                } == .invalidCredential)
            #expect(await harness.service.state.signInPrompt?.flowId == flow.flowId)
        }
    }

    @Test("an unknown or expired flow: expired-sign-in-flow; a cancelled one: sign-in-cancelled")
    func endedFlows() async throws {
        let harness = SignInFlowHarness()
        try await harness.run { events in
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.signIn.complete(
                        flowId: "nope", callbackUrl: SignInFlowHarness.redirect)
                } == .expiredSignInFlow)
            let flow = try await harness.service.signIn.start(harness.browser())
            try await harness.advance(900)
            #expect(try await next(&events) { $0.flow?.status.isFinal == true }.flow?.status == .expired)
            let late = try await harness.callback(identity: "lee")
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.signIn.complete(flowId: flow.flowId, callbackUrl: late)
                } == .expiredSignInFlow)
            let cancelled = try await harness.service.signIn.start(harness.browser())
            try await harness.service.signIn.cancel(flowId: cancelled.flowId)
            let callback = try await harness.callback(identity: "lee")
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.signIn.complete(flowId: cancelled.flowId, callbackUrl: callback)
                } == .signInCancelled)
        }
    }
}
