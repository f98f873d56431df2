import Foundation
import SesameCore
import SesameService
import SesameTesting
import Testing

/// The device flow on the fake backend and fake identity providers, time moved by hand.
@Suite("SessionService: device sign-in flows")
struct DeviceFlowServiceTests {
    @Test("approved from a guest: linked (uid kept); authStateChanged, then the flow completed, then the answer")
    func approvedLinksTheGuest() async throws {
        let harness = SignInFlowHarness()
        try await harness.run { events in
            let guest = try #require(await harness.service.state.user?.uid)
            let start = harness.clock.date
            let flow = try await harness.service.signIn.start(harness.device())
            #expect(flow.status == .pending && flow.kind == .device && flow.userCode != nil)
            #expect(flow.verificationUri != nil && flow.intervalSeconds == 5 && flow.authorizationUrl == nil)
            #expect(flow.expiresAt == harness.clock.date.addingTimeInterval(600))
            let started = try await next(&events) { $0.flow != nil }
            #expect(started.flow == flow && started.state.signInPrompt == SignInPrompt(flow))
            #expect(await harness.service.state.signInPrompt?.userCode == flow.userCode)

            let waiter = harness.waiter(flow.flowId)
            await harness.devices.answer(.pending)
            await harness.devices.approve(providerId: "google.com", identity: "alice")
            try await harness.advance(5, sleepers: 2)
            try await harness.advance(5, sleepers: 2)
            let outcome = try await waiter.value.get()
            #expect(outcome.merge == nil && outcome.state.user?.uid == guest)
            #expect(outcome.state.user?.isAnonymous == false && outcome.state.user?.providers == ["google.com"])
            #expect(outcome.state.signInPrompt == nil)

            let rest = try await collect(&events) { $0.flow?.status == .completed }
            let linked = try #require(rest.firstIndex { $0.reason == .linked })
            #expect(linked < rest.count - 1, "authStateChanged comes before the flow's completed notification")
            let completed = try #require(rest.last)
            #expect(completed.state.signInPrompt == nil && rest[linked].state.signInPrompt?.flowId == flow.flowId)
            let sequences = [started.sequence] + rest.filter(\.kind.advancesSequence).map(\.sequence)
            #expect(sequences == Array(sequences[0]..<(sequences[0] + Int64(sequences.count))), "each advances it")
            #expect(await harness.devices.polls.map { $0.at } == [5, 10].map { start.addingTimeInterval($0) })
        }
    }

    @Test("approved with an identity another account has: merged into it")
    func approvedMergesIntoExistingAccount() async throws {
        let harness = SignInFlowHarness()
        try await harness.run { events in
            let guest = try #require(await harness.service.state.user?.uid)
            let owner = await harness.provider.addFederatedAccount(providerId: "google.com", idToken: "bob")
            let flow = try await harness.service.signIn.start(harness.device())
            await harness.devices.approve(providerId: "google.com", identity: "bob")
            let waiter = harness.waiter(flow.flowId)
            try await harness.advance(5, sleepers: 2)
            let outcome = try await waiter.value.get()
            let merge = try #require(outcome.merge)
            #expect(merge.fromUid == guest && merge.toUid == owner && outcome.state.user?.uid == owner)
            #expect(try await next(&events) { $0.reason != nil }.reason == .merged)
        }
    }

    @Test("approved while signed out: signed-up")
    func approvedSignsUp() async throws {
        let harness = SignInFlowHarness()
        try await harness.run(guest: false) { events in
            let flow = try await harness.service.signIn.start(harness.device())
            await harness.devices.approve(providerId: "google.com", identity: "carol")
            try await harness.advance(5)
            _ = try await next(&events) { $0.flow?.status == .completed }
            let outcome = try await harness.service.signIn.wait(flowId: flow.flowId, timeout: 1)
            #expect(outcome.state.status == .authenticated && outcome.merge == nil)
            #expect(await harness.service.state.user?.providers == ["google.com"])
        }
    }

    @Test("access_denied: the flow fails with access-denied, the guest intact")
    func denied() async throws {
        let harness = SignInFlowHarness()
        try await harness.run { events in
            let before = await harness.service.state.user
            let flow = try await harness.service.signIn.start(harness.device())
            let waiter = harness.waiter(flow.flowId)
            await harness.devices.answer(.denied)
            try await harness.advance(5, sleepers: 2)
            #expect(await waiter.value.reason == .accessDenied)
            let ended = try await next(&events) { $0.flow?.status.isFinal == true }
            #expect(ended.flow?.status == .failed && ended.state.signInPrompt == nil)
            #expect(await harness.service.state.user == before)
            #expect(await harness.devices.pollCount == 1)
        }
    }

    @Test("expiry: at expiresAt the flow is expired (expired-sign-in-flow); never longer than 15 minutes")
    func expiry() async throws {
        let harness = SignInFlowHarness(expiresIn: 12)
        try await harness.run { events in
            let flow = try await harness.service.signIn.start(harness.device())
            #expect(flow.expiresAt == harness.clock.date.addingTimeInterval(12))
            try await harness.advance(5)
            try await harness.advance(5)
            try await harness.advance(2)
            let ended = try await next(&events) { $0.flow?.status.isFinal == true }
            #expect(ended.flow?.status == .expired)
            #expect(await harness.waiter(flow.flowId).value.reason == .expiredSignInFlow)
            #expect(await harness.devices.pollCount == 2)
        }
        let long = SignInFlowHarness(expiresIn: 3600)
        try await long.run { _ in
            let flow = try await long.service.signIn.start(long.device())
            #expect(flow.expiresAt == long.clock.date.addingTimeInterval(900))
            await long.devices.answer(.expired)
            try await long.advance(5)
            #expect(await long.waiter(flow.flowId).value.reason == .expiredSignInFlow)
        }
    }

    @Test("slow_down: the next polls come 5 s later than before")
    func slowDown() async throws {
        let harness = SignInFlowHarness()
        try await harness.run { _ in
            let start = harness.clock.date
            _ = try await harness.service.signIn.start(harness.device())
            await harness.devices.answer(.slowDown(interval: nil), .pending)
            try await harness.advance(5)
            try await eventually { await harness.devices.pollCount == 1 }
            try await harness.advance(5)
            try await harness.advance(5)
            try await eventually { await harness.devices.pollCount == 2 }
            try await harness.advance(10)
            try await eventually { await harness.devices.pollCount == 3 }
            #expect(await harness.devices.polls.map { $0.at } == [5, 15, 25].map { start.addingTimeInterval($0) })
        }
    }

    @Test("cancelSignIn: cancelled for everyone, its waiters get sign-in-cancelled, polling stops")
    func cancel() async throws {
        let harness = SignInFlowHarness()
        try await harness.run { events in
            let flow = try await harness.service.signIn.start(harness.device())
            let waiters = [harness.waiter(flow.flowId), harness.waiter(flow.flowId)]
            try await eventually { harness.clock.sleeperCount == 3 }
            try await harness.service.signIn.cancel(flowId: flow.flowId)
            for waiter in waiters { #expect(await waiter.value.reason == .signInCancelled) }
            let ended = try await next(&events) { $0.flow?.status.isFinal == true }
            #expect(ended.flow?.status == .cancelled && ended.state.signInPrompt == nil)
            try await eventually { harness.clock.sleeperCount == 0 }
            #expect(await harness.devices.pollCount == 0)
            #expect(await harness.waiter(flow.flowId).value.reason == .signInCancelled)
        }
    }

    @Test("a second startSignIn cancels the first (its waiters get sign-in-cancelled)")
    func secondStartCancelsFirst() async throws {
        let harness = SignInFlowHarness()
        try await harness.run { events in
            let first = try await harness.service.signIn.start(harness.device())
            let waiter = harness.waiter(first.flowId)
            try await eventually { harness.clock.sleeperCount == 2 }
            let second = try await harness.service.signIn.start(harness.device())
            #expect(await waiter.value.reason == .signInCancelled)
            let flows = try await collect(&events) { $0.flow?.flowId == second.flowId }.compactMap(\.flow)
            #expect(flows.map(\.status) == [.pending, .cancelled, .pending])
            #expect(flows.map(\.flowId) == [first.flowId, first.flowId, second.flowId])
            #expect(await harness.service.state.signInPrompt?.flowId == second.flowId)
        }
    }

    @Test("awaitSignIn at its timeout: operation-in-progress, and the flow goes on; many waiters all get the outcome")
    func timeoutAndManyWaiters() async throws {
        let harness = SignInFlowHarness()
        try await harness.run { _ in
            let flow = try await harness.service.signIn.start(harness.device())
            let impatient = harness.waiter(flow.flowId, timeout: 3)
            try await harness.advance(3, sleepers: 2)
            #expect(await impatient.value.reason == .operationInProgress)
            #expect(await harness.service.state.signInPrompt?.flowId == flow.flowId)
            let patient = (0..<3).map { _ in harness.waiter(flow.flowId) }
            await harness.devices.approve(providerId: "google.com", identity: "dana")
            try await harness.advance(2, sleepers: 4)
            var uids: [String?] = []
            for waiter in patient { uids.append(try await waiter.value.get().state.user?.uid) }
            #expect(Set(uids).count == 1 && uids.first != nil)
        }
    }
}
