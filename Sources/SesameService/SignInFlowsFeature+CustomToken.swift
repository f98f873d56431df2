import Foundation
import Logging
import SesameCore

/// Provisioning (PROTOCOL.md, "Provisioning"): signing in with a token minted by the project's
/// own server, on request or once at start from `provisioning.token_file`.
extension SessionHost {
    /// Signs in with a token minted by the project's server, by `signIn`'s rules: from a guest a
    /// merge into the token's account (or an update when it is the guest's own), from an account
    /// `already-signed-in` (sign out first), signed out `signed-in` or `signed-up`. A refused token is
    /// `invalid-custom-token` and the guest stays as it was.
    func signInWithCustomTokenNow(_ token: String) async throws(AuthError) -> SessionService.SignInOutcome {
        try await exclusively { () async throws(AuthError) in
            let provider = self.provider
            let result = try await openingChallenge(.signIn(guestUid: nil, forgetAddress: nil)) {
                () async throws(AuthError) in
                try await callMapped { () async throws(RemoteAuthError) in
                    try await provider.signIn(customToken: token)
                }
            }
            let merge = await adopt(result)
            return SessionService.SignInOutcome(state: state, merge: merge)
        }
    }

    /// Enrols the machine with a provisioning token, once at start (`provisioning.token_file`):
    /// only when nobody or a guest is signed in; an account already signed in is left alone
    /// (`.skipped`).
    ///
    /// The token is never logged, never kept (not in memory after this returns, never in the
    /// keyring) and never put in an error. A refused token is logged by its reason only and
    /// leaves the guest as it was. While the backend cannot be reached (a first boot before the
    /// network is up), it tries again with backoff (2 s doubling to 5 minutes) for as long as
    /// it takes, so a machine enrols as soon as it can; before each attempt it checks again
    /// that no account signed in meanwhile. An account with a second factor is not retried: it
    /// fails with `second-factor-required`, its challenge left open for a person to answer. Call it from a task of its own: it returns
    /// `.cancelled` when that task is cancelled.
    func provisionNow(customToken: String) async -> ProvisioningOutcome {
        var job = CustomTokenEnrollment()
        return await job.drive(from: job.start()) { action in
            await performEnrollment(action, token: customToken)
        }
    }

    /// Performs one step of ``CustomTokenEnrollment`` (never throws: a failure is an event).
    private func performEnrollment(
        _ action: CustomTokenEnrollment.Action, token: String
    ) async -> StepResult<CustomTokenEnrollment.Event, ProvisioningOutcome> {
        switch action {
        case .check:
            if Task.isCancelled { return .next(.cancelled) }
            guard status == .authenticated, let session else {
                return .next(.checked(accountUid: nil))
            }
            return .next(.checked(accountUid: session.uid))
        case .signIn:
            do throws(AuthError) {
                let outcome = try await signInWithCustomTokenNow(token)
                return .next(.signedIn(uid: outcome.state.user?.uid ?? "", merge: outcome.merge))
            } catch {
                return .next(.failed(error, random: .random(in: 0...1)))
            }
        case .retry(let delay, let error):
            logger.warning(
                "Provisioning could not reach the backend; trying again",
                metadata: ["reason": "\(error.reason.rawValue)", "retry.in": "\(Int(delay.rounded(.up)))s"])
            do { try await features.signInFlows.sleeper.sleep(seconds: delay) } catch { return .next(.cancelled) }
            return .next(.woke)
        case .finish(let outcome):
            logProvisioning(outcome)
            return .finished(outcome)
        }
    }

    private func logProvisioning(_ outcome: ProvisioningOutcome) {
        switch outcome {
        case .skipped:
            logger.info(
                "Provisioning skipped: an account is already signed in",
                metadata: ["session.uid": "\(session?.uid ?? "?")"])
        case .signedIn(let uid, _):
            logger.info("Provisioned the machine with its enrolment token", metadata: ["session.uid": "\(uid)"])
        case .failed(let error) where error.reason == .secondFactorRequired:
            logger.error(
                "The provisioning token's account has a second factor; not retrying. A person can answer the open challenge (completeSecondFactor)",
                metadata: ["challenge.id": "\(error.challenge?.challengeId ?? "?")"])
        case .failed(let error):
            logger.error(
                "The provisioning token was refused; the session is unchanged",
                metadata: ["reason": "\(error.reason.rawValue)"])
        case .cancelled:
            logger.info("Provisioning stopped before the token could be used")
        }
    }
}
