import Foundation
import SesameLocalAPI
import Testing

@testable import SesameClient

@Suite("Sign-in flow calls", .timeLimit(.minutes(1)))
struct SesameClientSignInFlowTests {
    static let flowJSON: JSONValue = [
        "flowId": "f1", "providerId": "google.com", "flow": "device", "status": "pending",
        "verificationUri": "https://www.google.com/device", "verificationUriComplete": .null,
        "userCode": "WDJB-MJHT", "authorizationUrl": .null, "expiresAt": "2026-11-21T10:15:00Z",
        "intervalSeconds": 5, "purpose": "sign-in",
    ]

    @Test func theFiveMethodsSendTheProtocolsNamesAndParamsAndReadTheResults() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        let state = await daemon.stateJSON
        let merge = WireMerge(
            mergeId: "m1", fromUid: "guest-1", toUid: "ann", createdAt: Date(timeIntervalSince1970: 0))
        await daemon.script("startSignIn") { _ in .result(Self.flowJSON) }
        for method in ["completeSignIn", "awaitSignIn", "signInWithCustomToken"] {
            await daemon.script(method) { _ in .result(["state": state, "merge": merge.json]) }
        }
        await daemon.script("cancelSignIn") { _ in .result([:]) }

        let flow = try await client.startSignIn(providerId: "google.com", flow: "device")
        #expect(flow == SesameSignInFlow(json: Self.flowJSON))
        #expect(flow.userCode == "WDJB-MJHT" && flow.intervalSeconds == 5 && flow.isPending)
        _ = try await client.startSignIn(
            providerId: "github.com", flow: "browser", redirectUri: "http://127.0.0.1:9/callback",
            purpose: "reauthenticate")
        let completed = try await client.completeSignIn(
            flowId: "f1", callbackUrl: "http://127.0.0.1:9/callback?code=c&state=s")
        #expect(completed.merge?.mergeId == "m1" && completed.state.user?.uid == "guest-1")
        _ = try await client.awaitSignIn(flowId: "f1", timeout: .milliseconds(1500))
        _ = try await client.awaitSignIn(flowId: "f1")
        try await client.cancelSignIn(flowId: "f1")
        let custom = try await client.signInWithCustomToken("minted")
        #expect(custom.merge?.toUid == "ann")

        let sent = await daemon.requests
        func params(_ method: String, _ index: Int = 0) -> [String: JSONValue] {
            sent.filter { $0.method == method }[index].params.values
        }
        #expect(params("startSignIn") == ["providerId": "google.com", "flow": "device"])
        #expect(
            params("startSignIn", 1) == [
                "providerId": "github.com", "flow": "browser", "redirectUri": "http://127.0.0.1:9/callback",
                "purpose": "reauthenticate",
            ])
        #expect(
            params("completeSignIn") == ["flowId": "f1", "callbackUrl": "http://127.0.0.1:9/callback?code=c&state=s"])
        #expect(params("awaitSignIn") == ["flowId": "f1", "timeout": 2], "whole seconds, rounded up")
        #expect(params("awaitSignIn", 1) == ["flowId": "f1"])
        #expect(params("cancelSignIn") == ["flowId": "f1"])
        #expect(params("signInWithCustomToken") == ["token": "minted"])
        await client.close()
        await daemon.stop()
    }

    @Test func theFlowsReasonsSurfaceAsDaemonErrors() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        for (method, reason) in [
            ("awaitSignIn", "expired-sign-in-flow"), ("completeSignIn", "access-denied"),
            ("cancelSignIn", "sign-in-cancelled"), ("signInWithCustomToken", "invalid-custom-token"),
        ] {
            await daemon.script(method) { _ in
                .error(LocalAPIError(code: .authentication, reason: reason, message: "What to do next."))
            }
        }
        let errors: [SesameClientError?] = [
            await #expect(throws: SesameClientError.self) { _ = try await client.awaitSignIn(flowId: "f1") },
            await #expect(throws: SesameClientError.self) {
                _ = try await client.completeSignIn(flowId: "f1", callbackUrl: "http://127.0.0.1:9/callback")
            },
            await #expect(throws: SesameClientError.self) { try await client.cancelSignIn(flowId: "f1") },
            await #expect(throws: SesameClientError.self) { _ = try await client.signInWithCustomToken("t") },
        ]
        #expect(
            errors.map { $0?.reason }
                == ["expired-sign-in-flow", "access-denied", "sign-in-cancelled", "invalid-custom-token"])
        #expect(errors.allSatisfy { $0?.code == 1000 })
        await client.close()
        await daemon.stop()
    }

    @Test func anAwaitIsNotCutShortByTheClientsRequestTimeout() async throws {
        let daemon = FakeDaemon()
        try await daemon.start()
        await daemon.script("awaitSignIn") { _ in .hold }
        await daemon.script("reload") { _ in .hold }
        let client = SesameClient(socketPath: daemon.path, clientName: "tests", requestTimeout: .milliseconds(300))
        // The await's own limit is generous: the test answers it as soon as the plain call gave
        // up, and a loaded machine must not make it expire first.
        let waiting = Task { try await client.awaitSignIn(flowId: "f1", timeout: .seconds(60)) }
        await daemon.waitForRequest("awaitSignIn")
        // A plain call with the same client gives up after 300 ms; the await goes on.
        await #expect(throws: SesameClientError.noAnswer(socketPath: daemon.path, timeout: .milliseconds(300))) {
            _ = try await client.reload()
        }
        await daemon.answerHeld(
            method: "awaitSignIn", with: .result(["state": await daemon.stateJSON, "merge": .null]))
        let outcome = try await waiting.value
        #expect(outcome.state.user?.uid == "guest-1" && outcome.merge == nil)
        await client.close()
        await daemon.stop()
    }

    @Test func aStartedFlowWithoutItsIdsIsAProtocolError() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        await daemon.script("startSignIn") { _ in .result(["status": "pending"]) }
        await #expect(throws: SesameClientError.self) {
            _ = try await client.startSignIn(providerId: "google.com", flow: "device")
        }
        await client.close()
        await daemon.stop()
    }
}
