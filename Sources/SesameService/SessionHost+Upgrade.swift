import Foundation
import Logging
import SesameCore

/// The upgrade paths: a guest becomes a permanent account in place (uid kept), or signs in to
/// an existing account and its data is handed over through a durable merge.
extension SessionHost {
    /// Creates an email/password account: linked to the anonymous user (uid kept), or a new
    /// account when signed out. The steps (and their undo) are ``AccountCreation``'s.
    func createAccount(
        email: String, password: String, username: String? = nil
    ) async throws(AuthError)
        -> AuthState
    {
        try await exclusively { () async throws(AuthError) in
            let claim: UsernameFlows.Claim?
            if let username {
                claim = try await requireUsernames().prepareClaim(username, in: self)
            } else {
                claim = nil
            }
            let origin: AccountCreation.Origin
            switch status {
            case .authenticated: throw AuthError(.alreadySignedIn)
            case .anonymous: origin = .guest
            case .signedOut, .starting: origin = .nobody
            }
            var job = AccountCreation(origin: origin, claimsUsername: claim != nil)
            let first = job.start()
            var flow = AccountCreationFlow(
                email: email, password: password, origin: origin, guest: self.session, claim: claim)
            return try await job.drive(from: first) { (action) async throws(AuthError) in
                try await flow.perform(action, in: self)
            }.get()
        }
    }

    /// Signs in with an email or username and a password. From an anonymous user this records
    /// a merge of the guest into the account.
    func signIn(identifier: String, password: String) async throws(AuthError) -> SessionService.SignInOutcome {
        try await exclusively { () async throws(AuthError) in
            let email = try await emailForIdentifier(identifier, forSignIn: true)
            let provider = self.provider
            let result = try await openingChallenge(.signIn(guestUid: nil, forgetAddress: nil), replacing: true) {
                () async throws(AuthError) in
                try await callMapped { () async throws(RemoteAuthError) in
                    try await provider.signIn(email: email, password: password)
                }
            }
            let merge = await adopt(result)
            return SessionService.SignInOutcome(state: state, merge: merge)
        }
    }

    /// Signs in with a federated identity: linked to the anonymous user when it is new, else
    /// signs in to the account that has it (recording a merge from a guest).
    func signInWithIdp(
        providerId: String, idToken: String?, accessToken: String?
    ) async throws(AuthError)
        -> SessionService.SignInOutcome
    {
        guard idToken?.isEmpty == false || accessToken?.isEmpty == false else {
            throw AuthError(.invalidCredential, message: "Give the identity provider's ID token or access token.")
        }
        let credential = FederatedCredential(providerId: providerId, idToken: idToken, accessToken: accessToken)
        let attempt = federatedAttempt(credential)
        return try await exclusively { () async throws(AuthError) in try await signInFederated(attempt) }
    }

    /// Adds a sign-in method to the current user. The steps are ``CredentialLink``'s.
    ///
    /// An email-link credential with an empty email uses the address remembered from the last
    /// `sendSignInLink` (`missing-email` when there is none), and forgets it once linked.
    func linkCredential(_ credential: Credential) async throws(AuthError) -> AuthState {
        try await exclusively { () async throws(AuthError) in
            guard let current = self.session else { throw AuthError(.noCurrentUser) }
            var credential = credential
            if case .emailLink(let email, let link) = credential, email.isEmpty {
                guard let remembered = persisted.emailLinkAddress else {
                    throw AuthError(.missingEmail, message: "Give the email address the link was sent to (--email).")
                }
                credential = .emailLink(email: remembered, link: link)
            }
            if current.user.providers.contains(credential.providerId) {
                throw AuthError(.providerAlreadyLinked, providerId: credential.providerId)
            }
            if case .emailLink(_, let link) = credential { try checkSignInProof(.link(link)) }
            var job = CredentialLink(
                credential: credential, uid: current.uid, isAnonymous: current.user.isAnonymous,
                email: current.user.email)
            let first = job.start()
            var flow = CredentialLinkFlow(credential: credential)
            return try await job.drive(from: first) { (action) async throws(AuthError) in
                try await flow.perform(action, in: self)
            }.get()
        }
    }

    /// Removes a sign-in method from the account (`password` removes email sign-in both ways).
    func unlink(providerId: String) async throws(AuthError) -> AuthState {
        try await exclusively { () async throws(AuthError) in
            guard let current = self.session else { throw AuthError(.noCurrentUser) }
            guard current.user.providers.contains(providerId) else {
                throw AuthError(.noSuchProvider, providerId: providerId)
            }
            let provider = self.provider
            try await withFreshToken { token async throws(RemoteAuthError) in
                try await provider.unlink(token, providerIds: [providerId])
            }
            try await reloadProfile()
            return state
        }
    }
}
