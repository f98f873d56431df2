import Foundation
import SesameClient
import SesameLocalAPI
import Testing

/// The device flow (RFC 8628) end to end (issue 20): the real daemon polls the emulator's fake
/// provider, a "person" approves through the emulator, and every program sees the outcome.
@Suite("sign-in flows end to end: device code", .serialized, .timeLimit(.minutes(4)))
struct DeviceFlowTests {
    @Test("approve from a guest: linked, uid kept; another program saw the prompt", arguments: TestBackend.allCases)
    func approveLinksTheGuest(backend: TestBackend) async throws {
        try await withDaemon(backend: backend) { emulator, daemon, client, watch in
            try await emulator.configureIdentityProviders(intervalSeconds: 1)
            let guest = try #require(try await client.state().user?.uid)
            let flow = try await client.startSignIn(providerId: "google.com", flow: "device")
            #expect(flow.status == "pending")
            let userCode = try #require(flow.userCode)
            #expect(flow.verificationUri?.contains("/emulator/v1/idp/google.com/device") == true)

            let kiosk = daemon.client()
            defer { Task { await kiosk.close() } }
            let prompt = try #require(try await kiosk.state().signInPrompt)
            #expect(prompt.flowId == flow.flowId && prompt.userCode == userCode)

            try await emulator.approveDevice(providerId: "google.com", userCode: userCode, email: "dee@example.com")
            let (state, merge) = try await kiosk.awaitSignIn(flowId: flow.flowId, timeout: .seconds(60))
            #expect(merge == nil)
            #expect(state.user?.uid == guest)
            #expect(state.status == .authenticated)
            #expect(state.user?.providers.contains("google.com") == true)
            #expect(state.signInPrompt == nil)
            try await watch.waitFor("linked")
            try await watch.waitFor("sign-in-flow-changed")
            let info = try #require(try await emulator.accountInfo(guest))
            #expect(info.providers.contains("google.com"))
        }
    }

    @Test("the same identity from a new guest: merged into the account that has it", arguments: TestBackend.allCases)
    func approveMergesIntoExistingAccount(backend: TestBackend) async throws {
        try await withDaemon(backend: backend) { emulator, daemon, client, watch in
            try await emulator.configureIdentityProviders(intervalSeconds: 1)
            let first = try await client.startSignIn(providerId: "google.com", flow: "device")
            try await emulator.approveDevice(
                providerId: "google.com", userCode: try #require(first.userCode), email: "eve@example.com")
            let account = try #require(
                try await client.awaitSignIn(flowId: first.flowId, timeout: .seconds(60)).state.user?.uid)
            _ = try await client.signOut()
            try await watch.waitFor("anonymous-created")
            let guest = try #require(try await client.state().user?.uid)
            #expect(guest != account)

            let second = try await client.startSignIn(providerId: "google.com", flow: "device")
            try await emulator.approveDevice(
                providerId: "google.com", userCode: try #require(second.userCode), email: "eve@example.com")
            let (state, merge) = try await client.awaitSignIn(flowId: second.flowId, timeout: .seconds(60))
            #expect(state.user?.uid == account)
            #expect(merge?.fromUid == guest && merge?.toUid == account)
        }
    }

    @Test("deny: access-denied for every waiter, the guest as it was", arguments: TestBackend.allCases)
    func denyLeavesTheGuest(backend: TestBackend) async throws {
        try await withDaemon(backend: backend) { emulator, daemon, client, watch in
            try await emulator.configureIdentityProviders(intervalSeconds: 1)
            let before = try await client.state()
            let flow = try await client.startSignIn(providerId: "google.com", flow: "device")
            try await emulator.approveDevice(
                providerId: "google.com", userCode: try #require(flow.userCode), email: "fay@example.com", deny: true)
            try await expectDaemonError("access-denied", code: 1000) {
                _ = try await client.awaitSignIn(flowId: flow.flowId, timeout: .seconds(60))
            }
            let after = try await client.state()
            #expect(after.user?.uid == before.user?.uid && after.status == .anonymous)
            #expect(after.signInPrompt == nil)
        }
    }

    @Test("a code nobody approves expires: expired-sign-in-flow", arguments: TestBackend.allCases)
    func expiry(backend: TestBackend) async throws {
        try await withDaemon(backend: backend) { emulator, daemon, client, watch in
            try await emulator.configureIdentityProviders(lifetimeSeconds: 3, intervalSeconds: 1)
            let flow = try await client.startSignIn(providerId: "google.com", flow: "device")
            try await expectDaemonError("expired-sign-in-flow", code: 1000) {
                _ = try await client.awaitSignIn(flowId: flow.flowId, timeout: .seconds(60))
            }
            #expect(try await client.state().status == .anonymous)
        }
    }

    @Test("cancel, and a second startSignIn cancelling the first: sign-in-cancelled")
    func cancelling() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            try await emulator.configureIdentityProviders(intervalSeconds: 1)
            let first = try await client.startSignIn(providerId: "google.com", flow: "device")
            let second = try await client.startSignIn(providerId: "github.com", flow: "device")
            try await expectDaemonError("sign-in-cancelled", code: 1000) {
                _ = try await client.awaitSignIn(flowId: first.flowId, timeout: .seconds(10))
            }
            #expect(try await client.state().signInPrompt?.flowId == second.flowId)
            try await client.cancelSignIn(flowId: second.flowId)
            try await expectDaemonError("sign-in-cancelled", code: 1000) {
                _ = try await client.awaitSignIn(flowId: second.flowId, timeout: .seconds(10))
            }
            #expect(try await client.state().signInPrompt == nil)
        }
    }

    @Test("awaitSignIn's timeout: operation-in-progress, and the flow goes on")
    func awaitTimeout() async throws {
        try await withDaemon { emulator, daemon, client, watch in
            try await emulator.configureIdentityProviders(intervalSeconds: 1)
            let flow = try await client.startSignIn(providerId: "github.com", flow: "device")
            try await expectDaemonError("operation-in-progress", code: 4000) {
                _ = try await client.awaitSignIn(flowId: flow.flowId, timeout: .seconds(1))
            }
            try await emulator.approveDevice(
                providerId: "github.com", userCode: try #require(flow.userCode), email: "gus@example.com")
            let (state, _) = try await client.awaitSignIn(flowId: flow.flowId, timeout: .seconds(60))
            #expect(state.user?.providers.contains("github.com") == true)
        }
    }

    @Test("GitHub on Supabase: operation-not-allowed before anyone is sent anywhere")
    func githubOnSupabase() async throws {
        try await withDaemon(backend: .supabase) { emulator, daemon, client, watch in
            let error = try await expectDaemonError("operation-not-allowed", code: 1000) {
                _ = try await client.startSignIn(providerId: "github.com", flow: "device")
            }
            #expect(error?.message.contains("browser") == true)
            #expect(try await client.state().signInPrompt == nil)
            #expect(try await emulator.calls().keys.contains { $0.contains("idp") } == false)
        }
    }

    @Test("a restart during a flow cancels it; the guest is intact", arguments: TestBackend.allCases)
    func restartCancels(backend: TestBackend) async throws {
        try await withDaemon(backend: backend) { emulator, daemon, client, watch in
            try await emulator.configureIdentityProviders(intervalSeconds: 1)
            let guest = try #require(try await client.state().user?.uid)
            let flow = try await client.startSignIn(providerId: "google.com", flow: "device")
            try await daemon.stop()
            try await daemon.restart()
            let fresh = daemon.client()
            defer { Task { await fresh.close() } }
            let state = try await fresh.state()
            #expect(state.user?.uid == guest && state.signInPrompt == nil)
            let error = try await expectDaemonError("expired-sign-in-flow", code: 1000) {
                _ = try await fresh.awaitSignIn(flowId: flow.flowId, timeout: .seconds(5))
            }
            #expect(error != nil)
        }
    }

    @Test("the backend down when the approval arrives: retried, not lost", arguments: TestBackend.allCases)
    func backendDownAtApproval(backend: TestBackend) async throws {
        try await withDaemon(backend: backend) { emulator, daemon, client, watch in
            try await emulator.configureIdentityProviders(intervalSeconds: 1)
            let guest = try #require(try await client.state().user?.uid)
            let flow = try await client.startSignIn(providerId: "google.com", flow: "device")
            let signInPath = backend == .supabase ? "/auth/v1/token" : "/identitytoolkit.googleapis.com"
            try await emulator.faults(["failNext": 3, "failStatus": 503, "pathPrefix": .string(signInPath)])
            try await emulator.approveDevice(
                providerId: "google.com", userCode: try #require(flow.userCode), email: "hal@example.com")
            let (state, _) = try await client.awaitSignIn(flowId: flow.flowId, timeout: .seconds(90))
            #expect(state.user?.uid == guest && state.status == .authenticated)
            try await emulator.clearFaults()
        }
    }
}
