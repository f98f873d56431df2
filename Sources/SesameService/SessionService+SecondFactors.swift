import Foundation
import Logging
import SesameCore

/// Second factors (PROTOCOL.md, "Second factors"): the challenge of a sign-in, and TOTP
/// enrolment. Placeholders until they are built (issue #21).
extension SessionService {
    /// Finishes the sign-in of the open challenge with a code: the result the first call would
    /// have had (a merge from a guest included).
    public func completeSecondFactor(
        challengeId: String, code: String, factorId: String?
    ) async throws(AuthError) -> SignInOutcome {
        throw AuthError(.operationNotAllowed, message: "Second factors are not built yet.")
    }

    /// Starts enrolling a TOTP authenticator: the secret and `otpauth://` URI to show.
    public func enrollTotp(displayName: String?) async throws(AuthError) -> TotpEnrollment {
        throw AuthError(.operationNotAllowed, message: "Second factors are not built yet.")
    }

    /// Activates an enrolment with a current code (`userUpdated`).
    public func confirmTotp(enrollmentId: String, code: String) async throws(AuthError) -> AuthState {
        throw AuthError(.operationNotAllowed, message: "Second factors are not built yet.")
    }

    /// Removes an enrolled factor (`userUpdated`).
    public func unenrollFactor(factorId: String) async throws(AuthError) -> AuthState {
        throw AuthError(.operationNotAllowed, message: "Second factors are not built yet.")
    }
}
