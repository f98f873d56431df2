import Foundation
import SesameCore
import SesameService
import SesameTesting
import Testing

/// A browser flow's authorization URL holds its `state`: whoever has it can finish the flow as
/// themselves (issue 31, item 1). Only the answer to `startSignIn` carries it.
@Suite("SessionService: a browser flow's URL and state stay in the start answer")
struct BrowserFlowSecrecyTests {
    @Test("the answer has the URL and state; no event, State or log line has either, through to the end")
    func onlyTheAnswer() async throws {
        let (logger, lines) = RecordingLogHandler.logger()
        let harness = SignInFlowHarness(logger: logger)
        try await harness.run { events in
            let flow = try await harness.service.signIn.start(harness.browser())
            let start = try #require(await harness.provider.lastBrowserStart)
            #expect(flow.authorizationUrl == start.authorizationUrl && flow.state == start.state)
            #expect(await harness.service.state.signInPrompt?.flowId == flow.flowId)
            _ = try await harness.service.signIn.complete(
                flowId: flow.flowId, callbackUrl: try await harness.callback(identity: "kai"))
            let seen = try await collect(&events) { $0.flow?.status == .completed }
            let flows = seen.compactMap(\.flow)
            #expect(flows.map(\.status) == [.pending, .completed])
            for published in flows {
                #expect(published.authorizationUrl == nil && published.state == nil)
                #expect(published.flowId == flow.flowId && published.expiresAt == flow.expiresAt)
            }
            let logged = lines.all.joined(separator: "\n")
            #expect(!logged.isEmpty)
            #expect(!logged.contains(start.state) && !logged.contains("idp.fake.invalid"))
        }
    }
}
