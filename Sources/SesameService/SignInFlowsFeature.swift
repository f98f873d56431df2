import Foundation
import SesameCore

/// The interactive sign-in flows (PROTOCOL.md, "Sign-in flows"), reached as `service.signIn`:
/// one open at a time, in memory only, seen by every program through `State.signInPrompt` and
/// `signInFlowChanged`. A feature beside the owner: its state is its own
/// (``SessionFeatures/signInFlows``), and it reaches the session only through ``SessionHost``.
public struct SignInFlowsFeature: Sendable {
    let host: any SessionHost

    /// Starts an interactive sign-in flow; a new one cancels the open one.
    ///
    /// Nothing is asked of an identity provider before the flow is known to be possible: a
    /// provider with no configuration, or one whose tokens the backend cannot take (a provider
    /// with no ID token on Supabase), is `operation-not-allowed` before the person is sent
    /// anywhere. `purpose: reauthenticate` needs a signed-in account (`requires-account`).
    public func start(_ request: SignInFlowRequest) async throws(AuthError) -> SignInFlow {
        try await Self.start(request, on: host)
    }

    /// Finishes a browser flow with the URL the browser came back to.
    public func complete(flowId: String, callbackUrl: String) async throws(AuthError) -> SessionService.SignInOutcome {
        try await Self.complete(flowId: flowId, callbackUrl: callbackUrl, on: host)
    }

    /// Waits until the flow ends: its outcome, or its error; `operation-in-progress` at `timeout`
    /// (the flow goes on). A flow that just ended answers at once; an unknown one is
    /// `expired-sign-in-flow`.
    public func wait(flowId: String, timeout: TimeInterval) async throws(AuthError) -> SessionService.SignInOutcome {
        try await Self.wait(flowId: flowId, timeout: timeout, on: host)
    }

    /// Cancels the flow (`sign-in-cancelled` for whoever waits on it). A flow that already ended
    /// is left as it ended; an unknown one is `expired-sign-in-flow`. The id of the open
    /// second-factor challenge cancels that challenge.
    public func cancel(flowId: String) async throws(AuthError) {
        try await Self.cancel(flowId: flowId, on: host)
    }

    /// Signs in with a token minted by the project's server, by `signIn`'s rules: from a guest a
    /// merge into the token's account (or an update when it is the guest's own), from an account
    /// `already-signed-in` (sign out first), signed out `signed-in` or `signed-up`. A refused token is
    /// `invalid-custom-token` and the guest stays as it was.
    public func withCustomToken(_ token: String) async throws(AuthError) -> SessionService.SignInOutcome {
        try await Self.withCustomToken(token, on: host)
    }

    /// Enrols the machine with a provisioning token, once at start (`provisioning.token_file`):
    /// only when nobody or a guest is signed in; an account already signed in is left alone
    /// (`.skipped`). The steps are ``CustomTokenEnrollment``'s; the token is never logged, kept
    /// or put in an error. Call it from a task of its own: it returns `.cancelled` when that
    /// task is cancelled.
    public func provision(customToken: String) async -> ProvisioningOutcome {
        await Self.provision(customToken: customToken, on: host)
    }

    private static func withCustomToken(
        _ token: String, on host: isolated some SessionHost
    ) async throws(AuthError) -> SessionService.SignInOutcome {
        try await host.signInWithCustomTokenNow(token)
    }

    private static func provision(customToken: String, on host: isolated some SessionHost) async -> ProvisioningOutcome
    {
        await host.provisionNow(customToken: customToken)
    }

    private static func start(
        _ request: SignInFlowRequest, on host: isolated some SessionHost
    ) async throws(AuthError) -> SignInFlow {
        try await host.startSignInFlow(request)
    }

    private static func complete(
        flowId: String, callbackUrl: String, on host: isolated some SessionHost
    ) async throws(AuthError) -> SessionService.SignInOutcome {
        try await host.completeBrowserFlow(flowId: flowId, callbackUrl: callbackUrl)
    }

    private static func wait(
        flowId: String, timeout: TimeInterval, on host: isolated some SessionHost
    ) async throws(AuthError) -> SessionService.SignInOutcome {
        try await host.awaitSignInFlow(flowId: flowId, timeout: timeout)
    }

    private static func cancel(flowId: String, on host: isolated some SessionHost) async throws(AuthError) {
        try await host.cancelSignInFlow(flowId: flowId)
    }
}

extension SessionService {
    /// The interactive sign-in flows: `service.signIn.start(…)`, `.complete`, `.wait`, `.cancel`.
    public nonisolated var signIn: SignInFlowsFeature { SignInFlowsFeature(host: self) }
}
