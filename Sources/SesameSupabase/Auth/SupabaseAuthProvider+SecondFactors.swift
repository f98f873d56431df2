import Foundation
import SesameCore
import SesameHTTP

// Second factors and account security: placeholders until they are built (issue #21).
extension SupabaseAuthProvider {
    public var recentSignInWindow: TimeInterval { 300 }

    public func completeSecondFactor(
        _ pending: PendingSecondFactor, factorId: String, code: String
    ) async throws(RemoteAuthError) -> SignInResult {
        throw .unsupported("Second factors are not built yet.")
    }

    public func startTotpEnrollment(
        _ idToken: IDToken, displayName: String?
    ) async throws(RemoteAuthError) -> TotpEnrollmentStart {
        throw .unsupported("Second factors are not built yet.")
    }

    public func finishTotpEnrollment(
        _ idToken: IDToken, _ start: TotpEnrollmentStart, code: String, displayName: String?
    ) async throws(RemoteAuthError) -> TokenGrant? {
        throw .unsupported("Second factors are not built yet.")
    }

    public func unenrollFactor(_ idToken: IDToken, factorId: String) async throws(RemoteAuthError) -> TokenGrant? {
        throw .unsupported("Second factors are not built yet.")
    }

    public func sendReauthenticationCode(_ idToken: IDToken) async throws(RemoteAuthError) {
        throw .unsupported("Reauthentication codes are not built yet.")
    }

    public func changePassword(
        _ idToken: IDToken, newPassword: String, reauthenticationCode: String?
    ) async throws(RemoteAuthError) -> TokenGrant? {
        throw .unsupported("Password changes are not built yet.")
    }

    public func requestEmailChange(_ idToken: IDToken, newEmail: String) async throws(RemoteAuthError) {
        throw .unsupported("Email changes are not built yet.")
    }

    public func confirmPasswordReset(
        _ proof: EmailSignInProof, email: String?, newPassword: String
    ) async throws(RemoteAuthError) -> String {
        throw .unsupported("Password reset confirmation is not built yet.")
    }
}
