import Foundation
import Logging
import SesameCore

/// Account security (PROTOCOL.md, "Account security"): reauthentication, password and email
/// changes, password reset confirmation. Placeholders until they are built (issue #21).
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

    /// Proves a recent sign-in without changing the uid; with no proof, asks the backend to
    /// mail a one-time code (where it sends them).
    public func reauthenticate(_ proof: ReauthenticationProof?) async throws(AuthError) -> Reauthentication {
        throw AuthError(.operationNotAllowed, message: "Reauthentication is not built yet.")
    }

    /// Sets a new password for the signed-in account.
    public func changePassword(newPassword: String) async throws(AuthError) {
        throw AuthError(.operationNotAllowed, message: "Password changes are not built yet.")
    }

    /// Starts an address change, verified before it is made; returns the pending address.
    public func changeEmail(newEmail: String) async throws(AuthError) -> String {
        throw AuthError(.operationNotAllowed, message: "Email changes are not built yet.")
    }

    /// Completes a password reset from its link or code; needs no session. Returns the email.
    public func confirmPasswordReset(
        _ proof: EmailSignInProof, email: String?, newPassword: String
    ) async throws(AuthError) -> String {
        throw AuthError(.operationNotAllowed, message: "Password reset confirmation is not built yet.")
    }
}
