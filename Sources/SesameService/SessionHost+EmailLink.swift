import Foundation
import Logging
import SesameCore

/// The sign-in link's steps the link and sign-in features share.
extension SessionHost {
    /// Asks the backend's adapter whether `proof` is a sign-in proof it takes, before anything
    /// is spent.
    func checkSignInProof(_ proof: EmailSignInProof) throws(AuthError) {
        do throws(RemoteAuthError) {
            try provider.checkSignInProof(proof)
        } catch {
            throw error.authError
        }
    }

    /// The address's sign-in methods at the backend; nil when the backend hides them.
    func signInMethods(forEmail email: String) async throws(AuthError) -> [String]? {
        let provider = self.provider
        return try await callMapped { () async throws(RemoteAuthError) in
            try await provider.signInMethods(forEmail: email)
        }
    }

    /// Forgets the remembered sign-in-link address when it is `email` (a link for it completed).
    @discardableResult
    func forgetEmailLinkAddress(_ email: String) async -> Bool {
        guard let remembered = persisted.emailLinkAddress, remembered.lowercased() == email.lowercased()
        else { return false }
        await apply(.emailLinkAddressChanged(nil))
        return true
    }
}

/// Passwordless sign-in: the link (or code) is single-use, so every choice is made before it
/// is spent. The adapter reads the proof; the domain never looks inside it.
extension SessionHost {
    /// Sends a passwordless sign-in link and remembers the address durably.
    func sendSignInLink(email: String, continueUrl: String?) async throws(AuthError) -> String {
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
    func completeSignInLink(
        _ proof: EmailSignInProof, email: String?
    ) async throws(AuthError) -> SessionService.SignInOutcome {
        try await exclusively { () async throws(AuthError) in
            try checkSignInProof(proof)
            guard let address = email ?? persisted.emailLinkAddress else {
                throw AuthError(.missingEmail, message: "Give the email address the link was sent to (--email).")
            }
            // After what makes the request itself wrong, before the single-use proof is spent.
            let guest = self.session.flatMap { $0.user.isAnonymous ? $0 : nil }
            var job = SignInLinkCompletion(email: address, emailGiven: email != nil, guestUid: guest?.uid)
            let first = job.start()
            var flow = SignInLinkFlow(proof: proof, address: address)
            return try await openingChallenge(.signIn(guestUid: guest?.uid, forgetAddress: address), replacing: true) {
                () async throws(AuthError) in
                try await job.drive(from: first) { (action) async throws(AuthError) in
                    try await flow.perform(action, in: self)
                }.get()
            }
        }
    }
}
