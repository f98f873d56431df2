import Foundation
import Logging
import SesameCore

/// Passwordless sign-in: the link (or code) is single-use, so every choice is made before it
/// is spent. The adapter reads the proof; the domain never looks inside it.
extension SessionService {
    /// Sends a passwordless sign-in link and remembers the address durably.
    public func sendSignInLink(email: String, continueUrl: String?) async throws(AuthError) -> String {
        try await exclusively { () async throws(AuthError) in
            let provider = self.provider
            try await callMapped { () async throws(RemoteAuthError) in
                try await provider.sendSignInLink(email: email, continueUrl: continueUrl)
            }
            await apply(.emailLinkAddressChanged(email))
            return email
        }
    }

    /// Completes a sign-in link: links the email to the anonymous user when it has no account,
    /// else signs in to the account (recording a merge from a guest).
    ///
    /// The link's code is single-use and spent even when the call fails, so the choice between
    /// linking and signing in is made before it is spent, and it is never retried blindly.
    ///
    /// Without `email`, the address remembered from ``sendSignInLink(email:continueUrl:)`` is
    /// used; when the backend says the proof belongs to another address, that is `missing-email`.
    public func completeSignInLink(_ proof: EmailSignInProof, email: String?) async throws(AuthError) -> SignInOutcome {
        try await exclusively { () async throws(AuthError) in
            try checkSignInProof(proof)
            guard let address = email ?? machine.persisted.emailLinkAddress else {
                throw AuthError(.missingEmail, message: "Give the email address the link was sent to (--email).")
            }
            do throws(AuthError) {
                return try await completeSignIn(proof, email: address)
            } catch where error.reason == .invalidEmail && email == nil {
                throw AuthError(
                    .missingEmail,
                    message: "That link was sent to another address than the remembered one: give the address it was sent to (--email).")
            }
        }
    }

    private func completeSignIn(_ proof: EmailSignInProof, email: String) async throws(AuthError) -> SignInOutcome {
        let provider = self.provider
        var outcome: SignInOutcome
        if let guest = machine.session, guest.user.isAnonymous,
            try await emailHasNoAccount(email)
        {
            let result: SignInResult
            do throws(AuthError) {
                result = try await withFreshToken { token async throws(RemoteAuthError) in
                    try await provider.signIn(email: email, proof: proof, linkingTo: token)
                }
            } catch {
                throw conflict(error, email: email, providerId: "password")
            }
            let session = await makeSession(from: result)
            if session.uid == guest.uid {
                await applyLinked(session)
                outcome = SignInOutcome(state: makeState(), merge: nil)
            } else {
                let merge = await adopt(result)
                outcome = SignInOutcome(state: makeState(), merge: merge)
            }
        } else {
            let result = try await callMapped { () async throws(RemoteAuthError) in
                try await provider.signIn(email: email, proof: proof, linkingTo: nil)
            }
            let merge = await adopt(result)
            outcome = SignInOutcome(state: makeState(), merge: merge)
        }
        if await forgetEmailLinkAddress(email) { outcome.state = makeState() }
        return outcome
    }

    /// Asks the backend's adapter whether `proof` is a sign-in proof it takes, before anything
    /// is spent.
    func checkSignInProof(_ proof: EmailSignInProof) throws(AuthError) {
        do throws(RemoteAuthError) {
            try provider.checkSignInProof(proof)
        } catch {
            throw error.authError
        }
    }

    /// Whether the backend says the email has no account yet. Hidden sign-in methods count as
    /// "has an account": signing in (and merging) never loses data, linking onto a taken email
    /// would spend the code for nothing.
    func emailHasNoAccount(_ email: String) async throws(AuthError) -> Bool {
        let provider = self.provider
        let methods = try await callMapped { () async throws(RemoteAuthError) in
            try await provider.signInMethods(forEmail: email)
        }
        return methods?.isEmpty == true
    }

    /// Whether the backend lists sign-in methods for the email (hidden methods count as none:
    /// the backend then decides).
    func emailHasAccount(_ email: String) async throws(AuthError) -> Bool {
        let provider = self.provider
        let methods = try await callMapped { () async throws(RemoteAuthError) in
            try await provider.signInMethods(forEmail: email)
        }
        return methods?.isEmpty == false
    }

    /// Forgets the remembered sign-in-link address when it is `email` (a link for it completed).
    @discardableResult
    func forgetEmailLinkAddress(_ email: String) async -> Bool {
        guard let remembered = machine.persisted.emailLinkAddress, remembered.lowercased() == email.lowercased()
        else { return false }
        await apply(.emailLinkAddressChanged(nil))
        return true
    }
}
