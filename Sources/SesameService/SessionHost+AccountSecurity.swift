import Foundation
import Logging
import SesameCore

/// Account security (PROTOCOL.md, "Account security"): reauthentication, password changes and
/// password reset confirmation. (Address changes: SessionService+EmailChange.swift.)
///
/// A call the backend refuses as not recent enough is `requires-recent-login` as the backend
/// says; after `reauthenticate` the same call succeeds.
extension SessionHost {
    /// Proves a recent sign-in without changing the uid; with no proof, asks the backend to
    /// mail a one-time code (where it sends them).
    ///
    /// A password signs the same account in again and adopts its tokens (an account with a
    /// second factor opens the challenge, which finishes as a reauthentication). A code is
    /// held in memory and sent, once, with the next password change.
    func reauthenticate(_ proof: ReauthenticationProof?) async throws(AuthError) -> SessionService.Reauthentication {
        try await exclusively { () async throws(AuthError) in
            let session = try requireAccount()
            let provider = self.provider
            switch proof {
            case nil:
                try await withFreshToken { token async throws(RemoteAuthError) in
                    try await provider.sendReauthenticationCode(token)
                }
                logger.info(
                    "Asked the backend to mail a reauthentication code", metadata: ["session.uid": "\(session.uid)"])
                return SessionService.Reauthentication(validUntil: nil, codeSent: true)
            case .code(let code):
                guard !code.isEmpty, code.count <= 64 else {
                    throw AuthError(.invalidVerificationCode, message: "Give the code the backend mailed you.")
                }
                let validUntil = now().addingTimeInterval(provider.recentSignInWindow)
                features.accountSecrets.heldCode = .init(uid: session.uid, code: code, validUntil: validUntil)
                logger.info(
                    "Holding a reauthentication code for the next password change",
                    metadata: ["session.uid": "\(session.uid)"])
                return SessionService.Reauthentication(validUntil: validUntil, codeSent: false)
            case .password(let password):
                guard let email = session.user.email else {
                    throw AuthError(
                        .operationNotAllowed,
                        message:
                            "This account has no email and password: reauthenticate with startSignIn (purpose reauthenticate)."
                    )
                }
                let result = try await openingChallenge(.reauthenticate(uid: session.uid), replacing: true) {
                    () async throws(AuthError) in
                    try await callMapped { () async throws(RemoteAuthError) in
                        try await provider.signIn(email: email, password: password)
                    }
                }
                guard result.uid == session.uid, self.session?.uid == session.uid else {
                    throw AuthError(
                        .invalidCredential,
                        message: "That is another account: give the password of the account signed in on this machine.")
                }
                _ = await adopt(result)
                logger.info("Reauthenticated", metadata: ["session.uid": "\(session.uid)"])
                return SessionService.Reauthentication(
                    validUntil: now().addingTimeInterval(provider.recentSignInWindow), codeSent: false)
            }
        }
    }

    /// Sets a new password for the signed-in account, and adopts the tokens the backend issued
    /// (Firebase ends the others). Sends a held reauthentication code, once.
    func changePassword(newPassword: String) async throws(AuthError) {
        try await exclusively { () async throws(AuthError) in
            let session = try requireAccount()
            guard !newPassword.isEmpty else { throw AuthError(.weakPassword) }
            let provider = self.provider
            let code = features.accountSecrets.takeCode(of: session.uid, now: now())
            do throws(AuthError) {
                let grant = try await withFreshToken { token async throws(RemoteAuthError) in
                    try await provider.changePassword(token, newPassword: newPassword, reauthenticationCode: code)
                }
                await adoptGrant(grant, of: session.uid)
                logger.info("Changed the password", metadata: ["session.uid": "\(session.uid)"])
            } catch {
                if error.category == .backend, let code {
                    // Not spent: the backend was not reached.
                    features.accountSecrets.heldCode = .init(
                        uid: session.uid, code: code, validUntil: now().addingTimeInterval(provider.recentSignInWindow))
                }
                throw error
            }
        }
    }

    /// Completes a password reset from its link or code; needs no session. Returns the email.
    /// - Parameter replacingChallenge: whether the caller may replace an open second-factor
    ///   challenge (a manager); an observer's reset is `operation-in-progress` instead.
    func confirmPasswordReset(
        _ proof: EmailSignInProof, email: String?, newPassword: String, replacingChallenge: Bool = true
    ) async throws(AuthError) -> String {
        if case .code = proof, email?.isEmpty != false {
            throw AuthError(.missingEmail, message: "Give the email address the code was sent to (--email).")
        }
        guard !newPassword.isEmpty else { throw AuthError(.weakPassword) }
        let provider = self.provider
        // On a backend that sets the password of an account with a second factor only after
        // it (GoTrue), this opens a challenge; `completeSecondFactor` then sets the password.
        let account = try await openingChallenge(
            .passwordReset(newPassword: newPassword), replacing: replacingChallenge
        ) {
            () async throws(AuthError) in
            try await callMapped { () async throws(RemoteAuthError) in
                try await provider.confirmPasswordReset(proof, email: email, newPassword: newPassword)
            }
        }
        logger.info("A password reset was completed")
        await checkSessionAfterPasswordReset(of: account)
        return account
    }
}
