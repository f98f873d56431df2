import Foundation
import Logging
import SesameCore

/// `signInWithIdp`'s rules, in one place for every path that signs in with a federated
/// identity: `signInWithIdp` itself, the device flow and the browser flow.
extension SessionService {
    /// What a linking attempt with a federated identity led to.
    enum FederatedAttempt: Sendable {
        /// Signed in (or up), or linked to the account given: compare the uid.
        case signedIn(SignInResult)
        /// The identity (or its email) belongs to another account: sign in to it with this.
        case signInInstead(FederatedCredential)
    }
}

extension SessionHost {
    /// Signs in with a federated identity by `signInWithIdp`'s rules (PROTOCOL.md, "Semantics"):
    /// from a guest the identity is linked when it is new (uid kept, `linked`), else the account
    /// that has it is signed in and the guest merged into it (`merged`); from an account it is
    /// refused (`already-signed-in`: sign out first); signed out it signs in or up. Runs inside
    /// ``exclusively(_:)``.
    ///
    /// With `purpose` `reauthenticate` the current account must sign in again: nothing is
    /// linked, and another uid is `invalid-credential` with nothing changed.
    /// - Parameter attempt: the backend call, given the guest's token to link to (nil to sign
    ///   in without linking).
    ///
    /// An account with a second factor opens the challenge, which finishes by the same rules.
    func signInFederated(
        purpose: SignInFlow.Purpose = .signIn,
        _ attempt: @escaping @Sendable (IDToken?) async throws(RemoteAuthError) -> SessionService.FederatedAttempt
    ) async throws(AuthError) -> SessionService.SignInOutcome {
        let finish: SecondFactorSignIn.Finish =
            purpose == .reauthenticate
            ? .reauthenticate(uid: self.session?.uid ?? "")
            : .signIn(guestUid: self.session.flatMap { $0.user.isAnonymous ? $0.uid : nil }, forgetAddress: nil)
        return try await openingChallenge(finish, replacing: true) { () async throws(AuthError) in
            try await signInFederatedNow(purpose: purpose, attempt)
        }
    }

    private func signInFederatedNow(
        purpose: SignInFlow.Purpose,
        _ attempt: @escaping @Sendable (IDToken?) async throws(RemoteAuthError) -> SessionService.FederatedAttempt
    ) async throws(AuthError) -> SessionService.SignInOutcome {
        let provider = self.provider
        if purpose == .reauthenticate {
            return try await reauthenticateFederated(attempt)
        }
        if let guest = self.session, guest.user.isAnonymous {
            let answer = try await withFreshToken { token async throws(RemoteAuthError) in try await attempt(token) }
            switch answer {
            case .signedIn(let result):
                let session = await makeSession(from: result)
                if session.uid == guest.uid {
                    await applyLinked(session)
                    return SessionService.SignInOutcome(state: state, merge: nil)
                }
                let merge = await adopt(result)
                return SessionService.SignInOutcome(state: state, merge: merge)
            case .signInInstead(let credential):
                // The identity (or its email) belongs to an account: sign in to it and merge.
                let result = try await callMapped { () async throws(RemoteAuthError) in
                    try await provider.signIn(federated: credential, linkingTo: nil)
                }
                let merge = await adopt(result)
                return SessionService.SignInOutcome(state: state, merge: merge)
            }
        }
        let result = try await signInWithoutLinking(attempt)
        let merge = await adopt(result)
        return SessionService.SignInOutcome(state: state, merge: merge)
    }

    /// The same account signs in again: its tokens are replaced; another uid changes nothing.
    private func reauthenticateFederated(
        _ attempt: @escaping @Sendable (IDToken?) async throws(RemoteAuthError) -> SessionService.FederatedAttempt
    ) async throws(AuthError) -> SessionService.SignInOutcome {
        guard let current = self.session, !current.user.isAnonymous else { throw AuthError(.requiresAccount) }
        let result = try await signInWithoutLinking(attempt)
        guard result.uid == current.uid, self.session?.uid == current.uid else {
            logger.info(
                "A reauthentication signed in another account; nothing changed",
                metadata: ["session.uid": "\(current.uid)"])
            throw AuthError(
                .invalidCredential,
                message: "That is another account: sign in again with the account that is signed in on this machine.")
        }
        _ = await adopt(result)
        return SessionService.SignInOutcome(state: state, merge: nil)
    }

    private func signInWithoutLinking(
        _ attempt: @escaping @Sendable (IDToken?) async throws(RemoteAuthError) -> SessionService.FederatedAttempt
    ) async throws(AuthError) -> SignInResult {
        let provider = self.provider
        return try await callMapped { () async throws(RemoteAuthError) in
            switch try await attempt(nil) {
            case .signedIn(let result): return result
            case .signInInstead(let credential): return try await provider.signIn(federated: credential, linkingTo: nil)
            }
        }
    }

    /// The attempt of `signInWithIdp` and the device flow: link the credential to the guest, or
    /// sign in with it; a conflict while linking means "sign in to the account that has it".
    nonisolated func federatedAttempt(
        _ credential: FederatedCredential
    ) -> @Sendable (IDToken?) async throws(RemoteAuthError) -> SessionService.FederatedAttempt {
        let provider = self.provider
        return { token async throws(RemoteAuthError) -> SessionService.FederatedAttempt in
            do throws(RemoteAuthError) {
                return .signedIn(try await provider.signIn(federated: credential, linkingTo: token))
            } catch .rejected(let error)
                where token != nil
                && (error.reason == .credentialAlreadyInUse || error.reason == .emailAlreadyInUse)
            {
                return .signInInstead(credential)
            }
        }
    }
}
