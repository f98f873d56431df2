import Foundation
import Logging
import SesameCore

/// Why a session ends when the backend refuses it: a changed password or address is told
/// apart from a deleted, disabled or revoked account.
extension SessionHost {
    /// Ends the current session the backend refused: `credentials-changed` when the backend or
    /// the daemon knows the password or the email address changed, else `session-revoked`.
    func endRefusedSession(_ reason: AuthError.Reason, knownCause: AuthChangeReason? = nil) async {
        if reason == .credentialsChanged || knownCause == .credentialsChanged {
            await apply(.credentialsChanged)
        } else {
            await apply(.sessionRevoked)
        }
    }

    /// The error of a call that ended the session of `uid`: a changed address the daemon
    /// remembered is named, with what to do; any other error unchanged.
    func endOfSessionError(_ error: RemoteAuthError, uid: String) -> AuthError {
        endOfSessionError(error.authError, uid: uid)
    }

    func endOfSessionError(_ error: AuthError, uid: String) -> AuthError {
        guard error.reason == .credentialsChanged, let address = persisted.pendingEmails[uid] else {
            return error
        }
        return AuthError(
            .credentialsChanged,
            message: "The account's email address changed to \(address), which ended this session: sign in with it.",
            email: address)
    }

    /// After the daemon completed a password reset of the account signed in here: the backend
    /// may end its other sessions (Firebase and GoTrue do), so the held one is checked now and,
    /// when refused, ends as `credentials-changed`, not later with a wrong cause. A session the
    /// backend keeps stays.
    func checkSessionAfterPasswordReset(of email: String) async {
        guard let session = self.session, !session.user.isAnonymous,
            session.user.email?.lowercased() == email.lowercased()
        else { return }
        do throws(RemoteAuthError) {
            _ = try await refreshCurrentSession(knownCause: .credentialsChanged)
            logger.info("The session outlived the password reset", metadata: ["session.uid": "\(session.uid)"])
        } catch {
            if self.session?.uid != session.uid {
                logger.info(
                    "The password reset ended the session; sign in with the new password",
                    metadata: ["session.uid": "\(session.uid)"])
            }
        }
    }
}

extension SessionHost {
    /// What a failed backend call says about connectivity: a rate limit is `backendRateLimited`
    /// (with the operation of ``BackendOperation`` and the backend's wait, and the refresh planned
    /// for its end), another transient failure (logged) `backendUnreachable`, any other answer
    /// `backendReached`.
    func connectivityEvent(after error: RemoteAuthError) -> SessionMachine.Event {
        guard error.isTransient else { return .backendReached }
        if case .rateLimited(let retryAfterMs) = error {
            let wait = TimeInterval(retryAfterMs ?? RemoteAuthError.defaultRateLimitWaitMs) / 1000
            let operation = BackendOperation.current ?? BackendOperation.refresh
            logger.warning(
                "The backend refused a call for a rate limit; will retry",
                metadata: ["operation": "\(operation)", "retryAfter": "\(wait)"])
            let retryAt = now().addingTimeInterval(wait)
            // The refresh at the limit's end tells whether it is over (then `online` again).
            let spread = MaintenancePlan.spread(wait, random: .random(in: 0...1)) ?? wait
            plan(.rateLimited(until: now().addingTimeInterval(spread)))
            return .backendRateLimited(RateLimit(operation: operation, retryAt: retryAt))
        }
        logger.warning("Backend call failed; will retry", metadata: ["error": "\(error)"])
        return .backendUnreachable
    }
}
