import Foundation
import Logging
import SesameCore

/// Second factors at sign-in (PROTOCOL.md, "Second factors"): every sign-in path that reaches
/// an account with a second factor opens the one challenge (``SecondFactors``), and
/// `completeSecondFactor` finishes it with the result the first call would have had. The steps
/// are ``SecondFactorSignIn``'s.
extension SessionHost {
    /// Finishes the sign-in of the open challenge with a code: the result the first call would
    /// have had (a merge from a guest included).
    ///
    /// An id that is not the open challenge's (answered, replaced, expired, or from before a
    /// restart) is `expired-sign-in-flow`: there is nothing to answer, the person signs in
    /// again. A code that is not six digits is `invalid-verification-code` without asking the
    /// backend. A wrong code, or a backend that cannot be reached, leaves the challenge open,
    /// but the ``SecondFactorGuesses/wrongCodesInARow``-th wrong code in a row ends it:
    /// `too-many-requests` with `retryAfterMs`, the lockout before a challenge opens again.
    func verifySecondFactor(
        challengeId: String, code: String, factorId: String?
    ) async throws(AuthError) -> SessionService.SignInOutcome {
        try await exclusively { () async throws(AuthError) in
            guard let open = features.secondFactors.open, open.challenge.challengeId == challengeId else {
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
            let result = await job.drive(from: first) { (action) async throws(AuthError) in
                try await flow.perform(action, in: self)
            }
            switch result {
            case .success: features.secondFactors.guesses.rightCode()
            case .failure(let error) where error.reason == .invalidVerificationCode:
                throw countWrongCode(challengeId)
            case .failure: break
            }
            return try result.get()
        }
    }

    /// Cancels the open challenge `challengeId` (`cancelSignIn` with its id); whether it was open.
    func cancelSecondFactor(_ challengeId: String) -> Bool {
        guard features.secondFactors.close(challengeId) else { return false }
        logger.info("A second-factor challenge was cancelled", metadata: ["challenge.id": "\(challengeId)"])
        emit(.userUpdated)
        return true
    }

    /// A code the backend refused: counted (``SecondFactorGuesses``). The error to answer says
    /// how many tries are left, or, for the last one, that the challenge ended. Logs the first
    /// wrong code in a row and one line when the tries run out, never one per code.
    private func countWrongCode(_ challengeId: String) -> AuthError {
        let limit = SecondFactorGuesses.wrongCodesInARow
        switch features.secondFactors.guesses.wrongCode(at: now()) {
        case .tryAgain(let left):
            if left == limit - 1 {
                logger.info(
                    "A wrong second-factor code (the next ones are summarised)",
                    metadata: ["challenge.id": "\(challengeId)"])
            }
            return AuthError(
                .invalidVerificationCode,
                message:
                    "That code is not right: type the code the app shows now (\(left) more wrong \(left == 1 ? "code ends" : "codes end") this sign-in)."
            )
        case .exhausted(let lockout):
            _ = features.secondFactors.close(challengeId)
            emit(.userUpdated)
            let seconds = Int(lockout.rounded(.up))
            logger.notice(
                "\(limit) wrong second-factor codes in a row: the challenge ended; no challenge opens for \(seconds) s",
                metadata: ["challenge.id": "\(challengeId)", "lockout.seconds": "\(seconds)"])
            return AuthError(
                .tooManyRequests,
                message:
                    "\(limit) wrong codes in a row: this sign-in ended. Sign in again in \(seconds) s, with the code the app shows then (check the phone's clock).",
                retryAfterMs: seconds * 1000)
        }
    }

    // MARK: - Opening the challenge

    /// Runs a sign-in: when one of its backend calls answers that the account has a second
    /// factor (the pending sign-in rides in the error), the challenge is opened (`userUpdated`)
    /// and the call fails with `second-factor-required` and the challenge. Nothing else
    /// changed. The steps are ``SecondFactorChallengeOpening``'s.
    ///
    /// - Parameter replacing: whether the caller may replace (so cancel) a challenge that is
    ///   open already; without it, an open challenge makes this call `operation-in-progress`.
    /// - Throws: `too-many-requests` (with `retryAfterMs`) while wrong codes locked challenges out.
    func openingChallenge<T: Sendable>(
        _ finish: SecondFactorSignIn.Finish, replacing: Bool = true, _ body: () async throws(AuthError) -> T
    ) async throws(AuthError) -> T {
        var job = SecondFactorChallengeOpening(replacing: replacing)
        var answer: T?
        let result: Result<T, AuthError> = await job.drive(from: job.start()) {
            (action) async throws(AuthError) -> StepResult<SecondFactorChallengeOpening.Event, Result<T, AuthError>> in
            switch action {
            case .signIn:
                answer = try await body()
                return .next(.signedIn)
            case .inspect:
                return .next(
                    .inspected(
                        lockoutLeft: features.secondFactors.guesses.lockoutLeft(at: now()),
                        challengeOpen: features.secondFactors.open != nil
                    ))
            case .lockedOut(let left): return .finished(.failure(lockedOut(left)))
            case .open(let pending): return .next(.opened(openChallenge(pending, finish: finish)))
            case .done:
                guard let answer else { return .finished(.failure(AuthError(.backendUnavailable))) }
                return .finished(.success(answer))
            case .fail(let error): return .finished(.failure(error))
            }
        }
        return try result.get()
    }

    /// A sign-in that reached a second factor during a lockout: refused, one log line per lockout.
    private func lockedOut(_ left: TimeInterval) -> AuthError {
        let seconds = Int(left.rounded(.up))
        if let until = features.secondFactors.guesses.lockedUntil, features.secondFactors.loggedLockout != until {
            features.secondFactors.loggedLockout = until
            logger.notice(
                "Refused a second-factor sign-in after too many wrong codes (more are not logged until the lockout ends)",
                metadata: ["lockout.seconds": "\(seconds)"])
        }
        return AuthError(
            .tooManyRequests,
            message: "Too many wrong second-factor codes lately: sign in again in \(seconds) s.",
            retryAfterMs: seconds * 1000)
    }

    private func openChallenge(
        _ pending: PendingSecondFactor, finish: SecondFactorSignIn.Finish
    ) -> SecondFactorChallenge {
        let opened = features.secondFactors.begin(pending, finish: finish, now: now())
        let challenge = opened.challenge
        logger.info(
            "The account has a second factor; opened a challenge",
            metadata: [
                "challenge.id": "\(challenge.challengeId)", "account.uid": "\(pending.uid ?? "?")",
                "factors": "\(challenge.factors.map(\.factorId))",
            ])
        let ending = opened.ending
        spawn { host in
            await ending.run { await host.expireChallenge(challenge) }
        }
        emit(.userUpdated)
        return challenge
    }

    /// Closes the challenge at its expiry (``Expiry``), unless it was closed first.
    fileprivate func expireChallenge(_ challenge: SecondFactorChallenge) async {
        let id = challenge.challengeId
        var job = Expiry(deadline: challenge.expiresAt)
        await job.drive(from: job.start(at: now())) { action -> StepResult<Expiry.Event, Void> in
            guard features.secondFactors.open?.challenge.challengeId == id else { return .finished(()) }
            switch action {
            case .wait(let seconds):
                do { try await features.secondFactors.sleeper.sleep(seconds: seconds) } catch { return .finished(()) }
                return .next(.woke(at: now()))
            case .expire:
                _ = features.secondFactors.close(id)
                logger.info("A second-factor challenge expired", metadata: ["challenge.id": "\(id)"])
                emit(.userUpdated)
                return .next(.expired)
            case .stop:
                return .finished(())
            }
        }
    }

    /// Closes the challenge `challengeId` when it is open (`userUpdated`).
    func closeChallenge(_ challengeId: String) {
        guard features.secondFactors.close(challengeId) else { return }
        emit(.userUpdated)
    }
}
