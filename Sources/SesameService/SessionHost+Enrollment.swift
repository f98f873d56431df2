import Foundation
import Logging
import SesameCore

/// TOTP enrolment (PROTOCOL.md, "Second factors"): started enrolments are kept in memory under
/// a daemon id (``SecondFactors``) until confirmed or expired; the secret is shown to the
/// caller once and never logged.
extension SessionHost {
    /// Starts enrolling a TOTP authenticator: the secret and `otpauth://` URI to show.
    func enrollTotp(displayName: String?) async throws(AuthError) -> TotpEnrollment {
        try await exclusively { () async throws(AuthError) in
            let session = try requireAccount()
            let provider = self.provider
            let start = try await withFreshToken { token async throws(RemoteAuthError) in
                try await provider.startTotpEnrollment(token, displayName: displayName)
            }
            let limit = now().addingTimeInterval(AccountSecrets.enrollmentLifetime)
            let expiresAt = min(start.expiresAt ?? limit, limit)
            let id = features.accountSecrets.addEnrollment(
                .init(uid: session.uid, start: start, displayName: displayName, expiresAt: expiresAt), now: now())
            logger.info(
                "Started a TOTP enrolment", metadata: ["enrollment.id": "\(id)", "session.uid": "\(session.uid)"])
            return TotpEnrollment(
                enrollmentId: id, secret: start.secret, otpauthUri: start.otpauthUri, expiresAt: expiresAt)
        }
    }

    /// Activates an enrolment with a current code (`userUpdated`): adopts the tokens the
    /// backend issued and reads the profile again, so `User.factors` lists the new factor.
    func confirmTotp(enrollmentId: String, code: String) async throws(AuthError) -> AuthState {
        try await exclusively { () async throws(AuthError) in
            let session = try requireAccount()
            guard let enrollment = features.accountSecrets.enrollment(enrollmentId, of: session.uid, now: now()) else {
                throw AuthError(
                    .expiredSignInFlow,
                    message:
                        "There is no such pending enrolment (confirmed, expired, or never started): run enrollTotp again."
                )
            }
            guard SecondFactors.isWellFormed(code) else {
                throw AuthError(
                    .invalidVerificationCode, message: "A code is the 6 digits your authenticator app shows now.")
            }
            let provider = self.provider
            let grant = try await withFreshToken { token async throws(RemoteAuthError) in
                try await provider.finishTotpEnrollment(
                    token, enrollment.start, code: code, displayName: enrollment.displayName)
            }
            features.accountSecrets.removeEnrollment(enrollmentId)
            logger.info(
                "Enrolled a TOTP authenticator",
                metadata: ["enrollment.id": "\(enrollmentId)", "session.uid": "\(session.uid)"])
            await adoptGrant(grant, of: session.uid)
            try await reloadProfile()
            return state
        }
    }

    /// Removes an enrolled factor (`userUpdated`). A sign-in that is not recent enough is
    /// `requires-recent-login`, as the backend says.
    func unenrollFactor(factorId: String) async throws(AuthError) -> AuthState {
        try await exclusively { () async throws(AuthError) in
            let session = try requireAccount()
            let provider = self.provider
            let grant = try await withFreshToken { token async throws(RemoteAuthError) in
                try await provider.unenrollFactor(token, factorId: factorId)
            }
            logger.info(
                "Removed a second factor", metadata: ["factor.id": "\(factorId)", "session.uid": "\(session.uid)"])
            await adoptGrant(grant, of: session.uid)
            try await reloadProfile()
            return state
        }
    }

    // MARK: - Shared steps

    /// The signed-in account: `no-current-user` signed out, `requires-account` for a guest.
    func requireAccount() throws(AuthError) -> Session {
        guard let session = self.session else { throw AuthError(.noCurrentUser) }
        guard !session.user.isAnonymous else { throw AuthError(.requiresAccount) }
        return session
    }

    /// Adopts tokens a call on the account returned, when it is still the current one.
    func adoptGrant(_ grant: TokenGrant?, of uid: String) async {
        guard let grant, grant.uid == uid, var current = self.session, current.uid == uid else { return }
        current.idToken = grant.idToken
        current.refreshToken = grant.refreshToken
        await apply(.updated(current))
    }
}
