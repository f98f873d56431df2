import Foundation
import SesameCore

extension SessionService {
    /// What `reauthenticate` did.
    public struct Reauthentication: Sendable, Hashable {
        /// Until when sensitive calls are allowed; nil when a code was only mailed.
        public var validUntil: Date?
        /// Whether the backend mailed a one-time code (called without a proof).
        public var codeSent: Bool

        public init(validUntil: Date?, codeSent: Bool) {
            self.validUntil = validUntil
            self.codeSent = codeSent
        }
    }

    /// The account-security feature (``AccountSecurity``).
    public nonisolated var security: AccountSecurity { AccountSecurity(host: self) }
}

/// Account security (PROTOCOL.md, "Account security"): reauthentication, password changes and
/// resets, TOTP enrolment. The feature's public face (`service.security.changePassword(…)`);
/// its steps run on the session's owner (``SessionHost``).
public struct AccountSecurity: Sendable {
    let host: SessionService

    /// Proves a recent sign-in without changing the uid; with no proof, asks the backend to
    /// mail a one-time code (where it sends them).
    ///
    /// A password signs the same account in again and adopts its tokens (an account with a
    /// second factor opens the challenge, which finishes as a reauthentication). A code is
    /// held in memory and sent, once, with the next password change.
    public func reauthenticate(
        _ proof: ReauthenticationProof?
    ) async throws(AuthError) -> SessionService.Reauthentication {
        try await host.reauthenticate(proof)
    }

    /// Sets a new password for the signed-in account, and adopts the tokens the backend issued
    /// (Firebase ends the others). Sends a held reauthentication code, once.
    public func changePassword(newPassword: String) async throws(AuthError) {
        try await host.changePassword(newPassword: newPassword)
    }

    /// Completes a password reset from its link or code; needs no session. Returns the email.
    /// - Parameter replacingChallenge: whether the caller may replace an open second-factor
    ///   challenge (a manager); an observer's reset is `operation-in-progress` instead.
    public func confirmPasswordReset(
        _ proof: EmailSignInProof, email: String?, newPassword: String, replacingChallenge: Bool = true
    ) async throws(AuthError) -> String {
        try await host.confirmPasswordReset(
            proof, email: email, newPassword: newPassword, replacingChallenge: replacingChallenge)
    }

    /// Starts enrolling a TOTP authenticator: the secret and `otpauth://` URI to show.
    public func enrollTotp(displayName: String?) async throws(AuthError) -> TotpEnrollment {
        try await host.enrollTotp(displayName: displayName)
    }

    /// Activates an enrolment with a current code (`userUpdated`): adopts the tokens the
    /// backend issued and reads the profile again, so `User.factors` lists the new factor.
    public func confirmTotp(enrollmentId: String, code: String) async throws(AuthError) -> AuthState {
        try await host.confirmTotp(enrollmentId: enrollmentId, code: code)
    }

    /// Removes an enrolled factor (`userUpdated`). A sign-in that is not recent enough is
    /// `requires-recent-login`, as the backend says.
    public func unenrollFactor(factorId: String) async throws(AuthError) -> AuthState {
        try await host.unenrollFactor(factorId: factorId)
    }
}
