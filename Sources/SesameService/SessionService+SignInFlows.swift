import Foundation
import SesameCore

// Placeholder signatures of the sign-in flows (PROTOCOL.md, "Sign-in flows", "Provisioning"):
// the implementation replaces this file.
extension SessionService {
    /// Starts an interactive sign-in flow; a new one cancels the open one.
    public func startSignIn(_ request: SignInFlowRequest) async throws(AuthError) -> SignInFlow {
        throw AuthError(.operationNotAllowed, message: "Sign-in flows are not available yet.")
    }

    /// Finishes a browser flow with the URL the browser came back to.
    public func completeSignIn(flowId: String, callbackUrl: String) async throws(AuthError) -> SignInOutcome {
        throw AuthError(.operationNotAllowed, message: "Sign-in flows are not available yet.")
    }

    /// Waits until the flow ends: its outcome, or its error; `operation-in-progress` at `timeout`.
    public func awaitSignIn(flowId: String, timeout: TimeInterval) async throws(AuthError) -> SignInOutcome {
        throw AuthError(.operationNotAllowed, message: "Sign-in flows are not available yet.")
    }

    /// Cancels the flow (`sign-in-cancelled` for whoever waits on it).
    public func cancelSignIn(flowId: String) async throws(AuthError) {
        throw AuthError(.operationNotAllowed, message: "Sign-in flows are not available yet.")
    }

    /// Signs in with a token minted by the project's server.
    public func signInWithCustomToken(_ token: String) async throws(AuthError) -> SignInOutcome {
        throw AuthError(.operationNotAllowed, message: "Custom tokens are not available yet.")
    }
}
