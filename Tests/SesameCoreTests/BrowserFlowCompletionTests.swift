import Foundation
import SesameCore
import Testing

private let t0 = Date(timeIntervalSince1970: 1_800_000_000)
private let merge = Merge(mergeId: "m1", fromUid: "guest", toUid: "acct", createdAt: t0)
private let used = AuthError(
    .invalidCredential, message: "That sign-in callback was already used: start the sign-in again.")
private let device = AuthError(
    .invalidCredential, message: "A device sign-in finishes by itself: wait for it with awaitSignIn.")
private let foreign = AuthError(
    .invalidCredential,
    message: "That sign-in callback does not belong to this sign-in: finish it in the browser it opened.")
private let refused = AuthError(
    .invalidCredential, message: "The identity provider refused the sign-in: start it again.")

/// Nothing of a browser flow is written: the "crash" rows are what the restart finds (no flow,
/// no spent callbacks; the keyring as before the sign-in or after it, one write).
@Suite("BrowserFlowCompletion: completeSignIn's steps and crash points")
struct BrowserFlowCompletionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var steps: [(BrowserFlowCompletion.Event, BrowserFlowCompletion.Action)]
        var testDescription: String { name }
    }

    @Test(
        "each event gives the right next action",
        arguments: [
            Case(
                name: "the flow's callback: spent, signed in, the flow completed, the merge answered",
                steps: [
                    (.checked(.valid), .spend), (.spent, .signIn),
                    (.signedIn(merge), .end(.completed, .success(merge))),
                    (.ended, .done(merge)),
                ]),
            Case(name: "a callback used already: refused", steps: [(.checked(.spent), .fail(used))]),
            Case(
                name: "a flow that is not open: how it ended",
                steps: [(.checked(.notOpen(AuthError(.signInCancelled))), .fail(AuthError(.signInCancelled)))]),
            Case(name: "a device flow's id: refused", steps: [(.checked(.deviceFlow), .fail(device))]),
            Case(
                name: "past its deadline: the flow ends expired",
                steps: [
                    (.checked(.expired), .end(.expired, .failure(AuthError(.expiredSignInFlow)))),
                    (.ended, .fail(AuthError(.expiredSignInFlow))),
                ]),
            Case(name: "another state: refused, nothing spent", steps: [(.checked(.foreignState), .fail(foreign))]),
            Case(
                name: "a URL not under the redirect: refused",
                steps: [(.failed(AuthError(.invalidCredential)), .fail(AuthError(.invalidCredential)))]),
            Case(
                name: "the person said no: spent, the flow failed with access-denied",
                steps: [
                    (.checked(.providerError("access_denied")), .spend),
                    (.spent, .end(.failed, .failure(AuthError(.accessDenied)))),
                    (.ended, .fail(AuthError(.accessDenied))),
                ]),
            Case(
                name: "another provider error: spent, the flow failed",
                steps: [
                    (.checked(.providerError("server_error")), .spend), (.spent, .end(.failed, .failure(refused))),
                    (.ended, .fail(refused)),
                ]),
            Case(
                name: "the backend unreachable: the callback given back, the flow stays open",
                steps: [
                    (.checked(.valid), .spend), (.spent, .signIn),
                    (.failed(AuthError(.networkRequestFailed)), .unspend),
                    (.unspent, .fail(AuthError(.networkRequestFailed))),
                ]),
            Case(
                name: "the backend refused: the flow failed",
                steps: [
                    (.checked(.valid), .spend), (.spent, .signIn),
                    (.failed(AuthError(.userDisabled)), .end(.failed, .failure(AuthError(.userDisabled)))),
                    (.ended, .fail(AuthError(.userDisabled))),
                ]),
            Case(
                name: "crash after spending, before the sign-in: nothing written; the restart has no flow",
                steps: [(.checked(.valid), .spend), (.spent, .signIn)]),
            Case(
                name: "crash after the sign-in, before the end: the keyring holds the account",
                steps: [
                    (.checked(.valid), .spend), (.spent, .signIn), (.signedIn(nil), .end(.completed, .success(nil))),
                ]),
            Case(
                name: "an event the last action cannot produce stops the job",
                steps: [(.spent, .fail(AuthError(.backendUnavailable)))]),
        ])
    func steps(_ c: Case) {
        var job = BrowserFlowCompletion()
        #expect(job.start() == .check)
        for (event, expected) in c.steps {
            #expect(job.handle(event) == expected)
        }
    }
}
