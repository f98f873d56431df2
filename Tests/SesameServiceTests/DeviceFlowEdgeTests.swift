import Foundation
import SesameCore
import SesameService
import SesameTesting
import Testing

/// The device flow's refusals, its backend outages, reauthentication and restarts.
@Suite("SessionService: device sign-in flows, edges")
struct DeviceFlowEdgeTests {
    @Test("the backend down when the approval arrives: the sign-in is retried, not lost, and completes")
    func backendDownAtApproval() async throws {
        let harness = SignInFlowHarness()
        try await harness.run { _ in
            let guest = try #require(await harness.service.state.user?.uid)
            let flow = try await harness.service.signIn.start(harness.device())
            let waiter = harness.waiter(flow.flowId, timeout: 900)
            await harness.provider.setOffline(true)
            await harness.devices.approve(providerId: "google.com", identity: "gina")
            try await harness.advance(5, sleepers: 2)
            try await harness.advance(sleepers: 2) { await harness.provider.count("signInWithIdp") >= 3 }
            #expect(await harness.service.state.signInPrompt?.flowId == flow.flowId, "still pending")
            #expect(await harness.service.state.connectivity == .offline)
            await harness.provider.setOffline(false)
            try await harness.advance(sleepers: 2) { await harness.service.state.signInPrompt == nil }
            let outcome = try await waiter.value.get()
            #expect(outcome.state.user?.uid == guest && outcome.state.user?.isAnonymous == false)
            #expect(await harness.devices.pollCount == 1, "the approval was kept, not asked for again")
        }
    }

    @Test("no device sign-in configured: operation-not-allowed naming the key, nobody asked")
    func notConfigured() async throws {
        let harness = SignInFlowHarness(configured: false)
        try await harness.run { _ in
            do throws(AuthError) {
                _ = try await harness.service.signIn.start(harness.device())
                Issue.record("started without a configuration")
            } catch {
                #expect(error.reason == .operationNotAllowed && error.message.contains("[oauth.\"google.com\"]"))
            }
            #expect(await harness.devices.starts == 0)
            #expect(await harness.service.state.signInPrompt == nil)
        }
    }

    @Test(
        "a backend that takes ID tokens only (Supabase) and GitHub, or an unknown provider: operation-not-allowed before the provider is called"
    )
    func refusedBeforeTheProviderIsCalled() async throws {
        let harness = SignInFlowHarness(federatedNeedsIDToken: true)
        try await harness.run { _ in
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.signIn.start(harness.device("github.com"))
                } == .operationNotAllowed)
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.signIn.start(harness.device("example.com"))
                } == .operationNotAllowed)
            #expect(await harness.devices.starts == 0)
            _ = try await harness.service.signIn.start(harness.device("google.com"))
            #expect(await harness.devices.starts == 1)
        }
    }

    @Test(
        "reauthenticate: needs an account; the same account gets fresh tokens; another is invalid-credential, nothing changes"
    )
    func reauthenticate() async throws {
        let harness = SignInFlowHarness()
        try await harness.run { events in
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.signIn.start(harness.device(purpose: .reauthenticate))
                } == .requiresAccount)
            _ = try await harness.service.accounts.signInWithIdp(
                providerId: "google.com", idToken: "erin", accessToken: nil)
            let account = try #require(await harness.service.state.user?.uid)
            let again = try await harness.service.signIn.start(harness.device(purpose: .reauthenticate))
            #expect(again.purpose == .reauthenticate)
            await harness.devices.approve(providerId: "google.com", identity: "erin")
            try await harness.advance(5)
            _ = try await next(&events) { $0.flow?.status == .completed }
            #expect(await harness.service.state.user?.uid == account)

            let other = try await harness.service.signIn.start(harness.device(purpose: .reauthenticate))
            await harness.devices.approve(providerId: "google.com", identity: "frank")
            try await harness.advance(5)
            #expect(await harness.waiter(other.flowId).value.reason == .invalidCredential)
            let after = await harness.service.state
            #expect(after.user?.uid == account && after.status == .authenticated)
        }
    }

    @Test("a waiter whose caller goes away stops waiting (its timer too); the flow goes on")
    func cancelledWaiter() async throws {
        let harness = SignInFlowHarness()
        try await harness.run { _ in
            let flow = try await harness.service.signIn.start(harness.device())
            let waiter = harness.waiter(flow.flowId)
            try await eventually { harness.clock.sleeperCount == 2 }
            waiter.cancel()
            #expect(await waiter.value.reason == .operationInProgress)
            try await eventually { harness.clock.sleeperCount == 1 }
            #expect(await harness.service.state.signInPrompt?.flowId == flow.flowId)
        }
    }

    @Test("a restart cancels the flow: its waiters get sign-in-cancelled; nothing of it was written; the guest intact")
    func restartCancels() async throws {
        let store = InMemorySessionStore()
        let harness = SignInFlowHarness(store: store)
        var guest: String?
        try await harness.run { _ in
            guest = await harness.service.state.user?.uid
            let flow = try await harness.service.signIn.start(harness.device())
            let waiter = harness.waiter(flow.flowId)
            try await eventually { harness.clock.sleeperCount == 2 }
            await harness.service.shutdown()
            #expect(await waiter.value.reason == .signInCancelled)
            try await eventually { harness.clock.sleeperCount == 0 }
            let written = String(reflecting: await store.stored)
            #expect(!written.contains(flow.flowId) && !written.contains("device-code"))
        }
        let restarted = SignInFlowHarness(store: store)
        try await restarted.service.start()
        #expect(await restarted.service.state.signInPrompt == nil)
        #expect(await restarted.service.state.user?.uid == guest)
        await restarted.service.shutdown()
    }
}
