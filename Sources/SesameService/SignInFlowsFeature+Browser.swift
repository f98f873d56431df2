import Foundation
import Logging
import SesameCore

/// The browser flow (RFC 8252, run by the backend where it can): the caller's loopback listener
/// gets the browser back and hands the URL to `completeSignIn`.
extension SessionHost {
    func startBrowserFlow(_ request: SignInFlowRequest) async throws(AuthError) -> SignInFlow {
        guard let redirectUri = request.redirectUri else {
            throw AuthError(.invalidCredential, message: "A browser sign-in needs the caller's loopback redirectUri.")
        }
        let provider = self.provider
        let providerId = request.providerId
        let start = try await callMapped { () async throws(RemoteAuthError) in
            try await provider.startBrowserSignIn(providerId: providerId, redirectUri: redirectUri)
        }
        // The URL holds `state` (and the loopback redirect): whoever has it can finish the flow
        // as someone else. It is kept with the secrets and goes only into this answer, never
        // into the flow that State, notifications and logs show.
        let flow = SignInFlow(
            flowId: newFlowId(), providerId: providerId, kind: .browser,
            expiresAt: flowDeadline(expiresIn: SignInFlow.maximumLifetime), purpose: request.purpose)
        await openFlow(flow, secret: .browser(start)) { host in
            await host.expire(flow.flowId, at: flow.expiresAt)
        }
        var answer = flow
        answer.authorizationUrl = start.authorizationUrl
        answer.state = start.state.isEmpty ? nil : start.state
        return answer
    }

    /// Checks the callback against the open flow, then signs in with it. A callback already
    /// spent, or whose `state` does not match, is `invalid-credential` and changes nothing. The
    /// steps are ``BrowserFlowCompletion``'s.
    func completeBrowserFlow(
        flowId: String, callbackUrl: String
    ) async throws(AuthError) -> SessionService.SignInOutcome {
        var job = BrowserFlowCompletion()
        let merge = await job.drive(from: job.start()) { (action) async throws(AuthError) in
            try await performCompletion(action, flowId: flowId, callbackUrl: callbackUrl)
        }
        return SessionService.SignInOutcome(state: state, merge: try merge.get())
    }

    private func performCompletion(
        _ action: BrowserFlowCompletion.Action, flowId: String, callbackUrl: String
    ) async throws(AuthError) -> StepResult<BrowserFlowCompletion.Event, Result<Merge?, AuthError>> {
        switch action {
        case .check:
            return .next(.checked(try checkCallback(callbackUrl, of: flowId)))
        case .spend:
            features.signInFlows.spend(callbackUrl)
            return .next(.spent)
        case .unspend:
            features.signInFlows.unspend(callbackUrl)
            return .next(.unspent)
        case .signIn:
            guard case .browser(let start)? = features.signInFlows.openFlow(flowId)?.secret else {
                throw notOpenError(flowId)
            }
            let (provider, purpose) = (self.provider, features.signInFlows.openFlow(flowId)?.flow.purpose ?? .signIn)
            let outcome = try await exclusively { () async throws(AuthError) in
                guard features.signInFlows.isOpen(flowId) else { throw notOpenError(flowId) }
                return try await signInFederated(purpose: purpose) { token async throws(RemoteAuthError) in
                    switch try await provider.completeBrowserSignIn(start, callbackUrl: callbackUrl, linkingTo: token) {
                    case .signedIn(let result): return .signedIn(result)
                    case .belongsToAnotherAccount(let credential, _): return .signInInstead(credential)
                    }
                }
            }
            return .next(.signedIn(outcome.merge))
        case .end(let status, let outcome):
            await endFlow(flowId, status: status, outcome: outcome)
            return .next(.ended)
        case .done(let merge): return .finished(.success(merge))
        case .fail(let error): return .finished(.failure(error))
        }
    }

    /// What the open flow says of `callbackUrl`.
    /// - Throws: `invalid-credential` when the URL is not one under the flow's redirect.
    private func checkCallback(
        _ callbackUrl: String, of flowId: String
    ) throws(AuthError) -> BrowserFlowCompletion.Check {
        guard !features.signInFlows.isSpent(callbackUrl) else { return .spent }
        guard let open = features.signInFlows.openFlow(flowId) else { return .notOpen(notOpenError(flowId)) }
        guard case .browser(let start) = open.secret else { return .deviceFlow }
        if now() >= open.flow.expiresAt { return .expired }
        let query = try BrowserCallback.parse(callbackUrl, redirectUri: start.redirectUri)
        guard query.state == start.state else {
            logger.warning(
                "A sign-in callback did not carry the flow's state; ignored", metadata: ["flow.id": "\(flowId)"])
            return .foreignState
        }
        return query.error.map { .providerError($0) } ?? .valid
    }
}

/// What a browser flow's callback URL says, read without logging any of it.
struct BrowserCallback {
    var state: String?
    var error: String?

    /// - Throws: `invalid-credential` when the URL is not one under `redirectUri`.
    static func parse(_ callbackUrl: String, redirectUri: String) throws(AuthError) -> BrowserCallback {
        guard callbackUrl.hasPrefix(redirectUri), let components = URLComponents(string: callbackUrl) else {
            throw AuthError(
                .invalidCredential, message: "That is not the URL the browser was sent back to: pass it unchanged.")
        }
        // RFC 6749 §4.1.2: the answer is in the query; some servers use the fragment.
        var items = components.queryItems ?? []
        if let fragment = components.fragment, let extra = URLComponents(string: "?" + fragment)?.queryItems {
            items += extra
        }
        func value(_ name: String) -> String? { items.first(where: { $0.name == name })?.value }
        return BrowserCallback(state: value("state"), error: value("error"))
    }
}
