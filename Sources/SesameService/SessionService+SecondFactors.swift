import Foundation
import Logging
import SesameCore

/// Second factors at sign-in (PROTOCOL.md, "Second factors"): every sign-in path that reaches
/// an account with a second factor opens the one challenge (``SecondFactors``), and
/// `completeSecondFactor` finishes it with the result the first call would have had. The steps
/// are ``SecondFactorSignIn``'s.
extension SessionService {
    /// Finishes the sign-in of the open challenge with a code: the result the first call would
    /// have had (a merge from a guest included).
    ///
    /// An id that is not the open challenge's (answered, replaced, expired, or from before a
    /// restart) is `expired-sign-in-flow`: there is nothing to answer, the person signs in
    /// again. A code that is not six digits is `invalid-verification-code` without asking the
    /// backend. A wrong code, or a backend that cannot be reached, leaves the challenge open.
    public func completeSecondFactor(
        challengeId: String, code: String, factorId: String?
    ) async throws(AuthError) -> SignInOutcome {
        try await exclusively { () async throws(AuthError) in
            guard let open = secondFactors.open, open.challenge.challengeId == challengeId else {
                throw AuthError(
                    .expiredSignInFlow,
                    message:
                        "There is no such open second-factor challenge (answered, replaced, expired, or the daemon restarted): sign in again."
                )
            }
            let expired = now() >= open.challenge.expiresAt
            if !expired {
                guard SecondFactors.isWellFormed(code) else {
                    throw AuthError(
                        .invalidVerificationCode, message: "A code is the 6 digits your authenticator app shows now.")
                }
                if let factorId, !open.challenge.factors.contains(where: { $0.factorId == factorId }) {
                    throw AuthError(
                        .invalidVerificationCode,
                        message: "That factor cannot answer this challenge: use one of the challenge's factors.")
                }
            }
            let factor = factorId ?? open.challenge.factors.first?.factorId ?? ""
            var job = SecondFactorSignIn(finish: open.finish)
            let first = job.start(expired: expired)
            var flow = SecondFactorSignInFlow(
                challengeId: challengeId, pending: open.pending, factorId: factor, code: code,
                newPassword: open.finish.newPassword)
            return try await job.drive(from: first) { (action) async throws(AuthError) in
                try await flow.perform(action, in: self)
            }.get()
        }
    }

    // MARK: - Opening the challenge

    /// Runs a sign-in: when one of its backend calls answers that the account has a second
    /// factor, the challenge is opened (`userUpdated`) and the call fails with
    /// `second-factor-required` and the challenge. Nothing else changed.
    func openingChallenge<T: Sendable>(
        _ finish: SecondFactorSignIn.Finish, _ body: () async throws(AuthError) -> T
    ) async throws(AuthError) -> T {
        secondFactors.caught = nil
        do throws(AuthError) {
            return try await body()
        } catch {
            guard error.reason == .secondFactorRequired, error.challenge == nil,
                let pending = secondFactors.caught
            else {
                secondFactors.caught = nil
                throw error
            }
            secondFactors.caught = nil
            throw AuthError(.secondFactorRequired, challenge: openChallenge(pending, finish: finish))
        }
    }

    /// Maps a backend failure to the caller's error, keeping a pending second factor for
    /// ``openingChallenge(_:_:)`` (never in the error).
    func caught(_ error: RemoteAuthError) -> AuthError {
        if case .secondFactorRequired(let pending) = error { secondFactors.caught = pending }
        return error.authError
    }

    private func openChallenge(
        _ pending: PendingSecondFactor, finish: SecondFactorSignIn.Finish
    ) -> SecondFactorChallenge {
        let (challenge, replaced) = secondFactors.begin(pending, finish: finish, now: now())
        replaced?.cancel()
        logger.info(
            "The account has a second factor; opened a challenge",
            metadata: [
                "challenge.id": "\(challenge.challengeId)", "account.uid": "\(pending.uid ?? "?")",
                "factors": "\(challenge.factors.map(\.factorId))",
            ])
        let sleeper = signInFlows.sleeper
        let wait = max(0, challenge.expiresAt.timeIntervalSince(now()))
        let id = challenge.challengeId
        let timer = Task { [weak self] in
            do { try await sleeper.sleep(seconds: wait) } catch { return }
            await self?.expireChallenge(id)
        }
        secondFactors.setTimer(timer, for: id)
        emit(.userUpdated)
        return challenge
    }

    private func expireChallenge(_ challengeId: String) {
        guard secondFactors.close(challengeId) else { return }
        logger.info("A second-factor challenge expired", metadata: ["challenge.id": "\(challengeId)"])
        emit(.userUpdated)
    }

    /// Closes the challenge `challengeId` when it is open (`userUpdated`).
    func closeChallenge(_ challengeId: String) {
        guard secondFactors.close(challengeId) else { return }
        emit(.userUpdated)
    }
}
