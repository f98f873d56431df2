import Foundation
import Logging
import SesameCore

/// The upgrade paths: a guest becomes a permanent account in place (uid kept), or signs in to
/// an existing account and its data is handed over through a durable merge.
extension SessionService {
    /// What a sign-in flow ends in: the state, and the merge it recorded, if any.
    public struct SignInOutcome: Sendable, Hashable {
        public var state: AuthState
        public var merge: Merge?
    }

    /// Creates an email/password account: linked to the anonymous user (uid kept), or a new
    /// account when signed out. The steps (and their undo) are ``AccountCreation``'s.
    public func createAccount(
        email: String, password: String, username: String? = nil
    ) async throws(AuthError)
        -> AuthState
    {
        try await exclusively { () async throws(AuthError) in
            let provider = self.provider
            let claim = try await prepareUsernameForNewAccount(username)
            let origin: AccountCreation.Origin
            switch machine.status {
            case .authenticated: throw AuthError(.alreadySignedIn)
            case .anonymous: origin = .guest
            case .signedOut, .starting: origin = .nobody
            }
            let guest = machine.session
            var job = AccountCreation(origin: origin, claimsUsername: claim != nil)
            var action = job.start()
            var result: SignInResult?
            var session: Session?
            while true {
                switch action {
                case .claimForGuest, .claimForNewAccount:
                    guard let claim, let owner = action == .claimForGuest ? guest : session else {
                        throw AuthError(.noCurrentUser)
                    }
                    do throws(AuthError) {
                        try await claimUsername(claim, for: owner)
                        action = job.handle(.claimed)
                    } catch {
                        action = job.handle(.claimFailed(error))
                    }
                case .linkToGuest, .signUp:
                    do throws(AuthError) {
                        if action == .linkToGuest {
                            result = try await withFreshToken { token async throws(RemoteAuthError) in
                                try await provider.signUp(email: email, password: password, linkingTo: token)
                            }
                        } else {
                            result = try await callMapped { () async throws(RemoteAuthError) in
                                try await provider.signUp(email: email, password: password, linkingTo: nil)
                            }
                        }
                        if let result { session = await makeSession(from: result) }
                        action = job.handle(.created)
                    } catch {
                        action = job.handle(.creationFailed(conflict(error, email: email, providerId: "password")))
                    }
                case .adopt:
                    guard var adopted = session else { throw AuthError(.noCurrentUser) }
                    if let claim { adopted.user.username = claim.username }
                    session = adopted
                    if origin == .guest, adopted.uid == guest?.uid {
                        await applyLinked(adopted)
                    } else {
                        logger.info("Signed up", metadata: ["session.uid": "\(adopted.uid)"])
                        await apply(.signedIn(adopted, reason: .signedUp))
                    }
                    action = job.handle(.adopted)
                case .writeDetails:
                    if let claim, let session { await finishUsernameClaim(claim, for: session) }
                    action = job.handle(.detailsHandled)
                case .releaseGuestClaim:
                    if let claim, let guest { await releaseClaim(claim, of: guest) }
                    action = job.handle(.undone)
                case .deleteNewAccount:
                    if let result {
                        _ = try? await callMapped { () async throws(RemoteAuthError) in
                            try await provider.deleteAccount(result.idToken)
                        }
                    }
                    action = job.handle(.undone)
                case .done:
                    return makeState()
                case .fail(let error):
                    throw error
                }
            }
        }
    }

    /// Signs in with an email or username and a password. From an anonymous user this records
    /// a merge of the guest into the account.
    public func signIn(identifier: String, password: String) async throws(AuthError) -> SignInOutcome {
        try await exclusively { () async throws(AuthError) in
            let email = try await emailForIdentifier(identifier, forSignIn: true)
            let provider = self.provider
            let result = try await callMapped { () async throws(RemoteAuthError) in
                try await provider.signIn(email: email, password: password)
            }
            let merge = await adopt(result)
            return SignInOutcome(state: makeState(), merge: merge)
        }
    }

    /// Signs in with a federated identity: linked to the anonymous user when it is new, else
    /// signs in to the account that has it (recording a merge from a guest).
    public func signInWithIdp(
        providerId: String, idToken: String?, accessToken: String?
    ) async throws(AuthError)
        -> SignInOutcome
    {
        guard idToken?.isEmpty == false || accessToken?.isEmpty == false else {
            throw AuthError(.invalidCredential, message: "Give the identity provider's ID token or access token.")
        }
        let credential = FederatedCredential(providerId: providerId, idToken: idToken, accessToken: accessToken)
        return try await exclusively { () async throws(AuthError) in
            let provider = self.provider
            if let guest = machine.session, guest.user.isAnonymous {
                do throws(AuthError) {
                    let result = try await withFreshToken { token async throws(RemoteAuthError) in
                        try await provider.signIn(federated: credential, linkingTo: token)
                    }
                    let session = await makeSession(from: result)
                    if session.uid == guest.uid {
                        await applyLinked(session)
                        return SignInOutcome(state: makeState(), merge: nil)
                    }
                    let merge = await adopt(result)
                    return SignInOutcome(state: makeState(), merge: merge)
                } catch  where error.reason == .credentialAlreadyInUse || error.reason == .emailAlreadyInUse {
                    // The identity (or its email) belongs to an account: sign in to it and merge.
                }
            }
            let result = try await callMapped { () async throws(RemoteAuthError) in
                try await provider.signIn(federated: credential, linkingTo: nil)
            }
            let merge = await adopt(result)
            return SignInOutcome(state: makeState(), merge: merge)
        }
    }

    /// Adds a sign-in method to the current user. The steps are ``CredentialLink``'s.
    ///
    /// An email-link credential with an empty email uses the address remembered from the last
    /// `sendSignInLink` (`missing-email` when there is none), and forgets it once linked.
    public func linkCredential(_ credential: Credential) async throws(AuthError) -> AuthState {
        try await exclusively { () async throws(AuthError) in
            guard let current = machine.session else { throw AuthError(.noCurrentUser) }
            var credential = credential
            if case .emailLink(let email, let link) = credential, email.isEmpty {
                guard let remembered = machine.persisted.emailLinkAddress else {
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
            var action = job.start()
            var result: SignInResult?
            var session: Session?
            while true {
                do throws(AuthError) {
                    switch action {
                    case .checkEmail(let email):
                        action = job.handle(.signInMethods(try await signInMethods(forEmail: email)))
                    case .link:
                        let linked = try await link(credential)
                        let made = await makeSession(from: linked)
                        result = linked
                        session = made
                        action = job.handle(.linked(uid: made.uid, email: made.user.email))
                    case .adoptLinked:
                        if let session { await applyLinked(session) }
                        action = job.handle(.adopted)
                    case .adoptUpdated:
                        if let session {
                            logger.info(
                                "Linked a sign-in method",
                                metadata: ["session.uid": "\(session.uid)", "provider": "\(credential.providerId)"])
                            await apply(.updated(session))
                        }
                        action = job.handle(.adopted)
                    case .adoptAsSignIn:
                        // Never expected from a link; treat it as a sign-in so nothing is lost.
                        if let result { _ = await adopt(result) }
                        action = job.handle(.adopted)
                    case .syncUsernameEmail:
                        if let session { await syncUsernameEmail(of: session) }
                        action = job.handle(.synced)
                    case .forgetEmailLinkAddress(let email):
                        await forgetEmailLinkAddress(email)
                        action = job.handle(.forgotten)
                    case .done:
                        return makeState()
                    case .fail(let error):
                        throw error
                    }
                } catch {
                    if case .fail = action { throw error }
                    action = job.handle(.failed(error))
                }
            }
        }
    }

    /// The link call of ``linkCredential(_:)``, with a fresh token of the current account.
    private func link(_ credential: Credential) async throws(AuthError) -> SignInResult {
        let provider = self.provider
        switch credential {
        case .password(let email, let password):
            return try await withFreshToken { token async throws(RemoteAuthError) in
                try await provider.signUp(email: email, password: password, linkingTo: token)
            }
        case .emailLink(let email, let link):
            let proof = EmailSignInProof.link(link)
            return try await withFreshToken { token async throws(RemoteAuthError) in
                try await provider.signIn(email: email, proof: proof, linkingTo: token)
            }
        case .federated(let providerId, let idToken, let accessToken):
            let federated = FederatedCredential(providerId: providerId, idToken: idToken, accessToken: accessToken)
            return try await withFreshToken { token async throws(RemoteAuthError) in
                try await provider.signIn(federated: federated, linkingTo: token)
            }
        }
    }

    /// Removes a sign-in method from the account (`password` removes email sign-in both ways).
    public func unlink(providerId: String) async throws(AuthError) -> AuthState {
        try await exclusively { () async throws(AuthError) in
            guard let current = machine.session else { throw AuthError(.noCurrentUser) }
            guard current.user.providers.contains(providerId) else {
                throw AuthError(.noSuchProvider, providerId: providerId)
            }
            let provider = self.provider
            try await withFreshToken { token async throws(RemoteAuthError) in
                try await provider.unlink(token, providerIds: [providerId])
            }
            try await reloadProfile()
            return makeState()
        }
    }

    // MARK: - Steps

    /// Adds what the person needs to act to a conflict error.
    func conflict(_ error: AuthError, email: String?, providerId: String) -> AuthError {
        error.addingConflictDetails(email: email, providerId: providerId)
    }
}
