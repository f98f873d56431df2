import Foundation
import Logging
import SesameCore

/// The browser flow (RFC 8252, run by the backend where it can): the caller's loopback listener
/// gets the browser back and hands the URL to `completeSignIn`.
extension SessionService {
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
        await openFlow(flow, secret: .browser(start)) { service in
            await service.expire(flow.flowId, at: flow.expiresAt)
        }
        var answer = flow
        answer.authorizationUrl = start.authorizationUrl
        answer.state = start.state.isEmpty ? nil : start.state
        return answer
    }

    /// Checks the callback against the open flow, then signs in with it. A callback already
    /// spent, or whose `state` does not match, is `invalid-credential` and changes nothing.
    func completeBrowserFlow(flowId: String, callbackUrl: String) async throws(AuthError) -> SignInOutcome {
        guard !signInFlows.isSpent(callbackUrl) else {
            throw AuthError(
                .invalidCredential, message: "That sign-in callback was already used: start the sign-in again.")
        }
        guard let open = signInFlows.openFlow(flowId) else { throw notOpenError(flowId) }
        guard case .browser(let start) = open.secret else {
            throw AuthError(
                .invalidCredential, message: "A device sign-in finishes by itself: wait for it with awaitSignIn.")
        }
        if now() >= open.flow.expiresAt {
            await endFlow(flowId, status: .expired, outcome: .failure(AuthError(.expiredSignInFlow)))
            throw AuthError(.expiredSignInFlow)
        }
        let query = try BrowserCallback.parse(callbackUrl, redirectUri: start.redirectUri)
        guard query.state == start.state else {
            logger.warning(
                "A sign-in callback did not carry the flow's state; ignored", metadata: ["flow.id": "\(flowId)"])
            throw AuthError(
                .invalidCredential,
                message: "That sign-in callback does not belong to this sign-in: finish it in the browser it opened.")
        }
        if let providerError = query.error {
            signInFlows.spend(callbackUrl)
            let error =
                providerError == "access_denied"
                ? AuthError(.accessDenied)
                : AuthError(.invalidCredential, message: "The identity provider refused the sign-in: start it again.")
            await endFlow(flowId, status: .failed, outcome: .failure(error))
            throw error
        }
        signInFlows.spend(callbackUrl)
        let provider = self.provider
        let purpose = open.flow.purpose
        do throws(AuthError) {
            let outcome = try await exclusively { () async throws(AuthError) in
                guard signInFlows.isOpen(flowId) else { throw notOpenError(flowId) }
                return try await signInFederated(purpose: purpose) { token async throws(RemoteAuthError) in
                    switch try await provider.completeBrowserSignIn(start, callbackUrl: callbackUrl, linkingTo: token) {
                    case .signedIn(let result): return .signedIn(result)
                    case .belongsToAnotherAccount(let credential, _): return .signInInstead(credential)
                    }
                }
            }
            await endFlow(flowId, status: .completed, outcome: .success(outcome.merge))
            return SignInOutcome(state: makeState(), merge: outcome.merge)
        } catch {
            if error.category == .backend {
                // The backend was not reached: the code was not spent, the person may retry.
                signInFlows.unspend(callbackUrl)
            } else {
                await endFlow(flowId, status: .failed, outcome: .failure(error))
            }
            throw error
        }
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
