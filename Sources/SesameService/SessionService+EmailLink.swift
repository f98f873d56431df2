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
            // After what makes the request itself wrong, before the single-use proof is spent.
            let guest = machine.session.flatMap { $0.user.isAnonymous ? $0 : nil }
            var job = SignInLinkCompletion(email: address, emailGiven: email != nil, guestUid: guest?.uid)
            let first = job.start()
            var flow = SignInLinkFlow(proof: proof, address: address)
            return try await openingChallenge(.signIn(guestUid: guest?.uid, forgetAddress: address)) {
                () async throws(AuthError) in
                try await job.drive(from: first) { (action) async throws(AuthError) in
                    try await flow.perform(action, in: self)
                }.get()
            }
        }
    }
}
