import Foundation
import SesameCore

extension SessionService {
    /// What a sign-in flow ends in: the state, and the merge it recorded, if any.
    public struct SignInOutcome: Sendable, Hashable {
        public var state: AuthState
        public var merge: Merge?
    }

    /// The accounts feature (``Accounts``): signing in and out, upgrades and merges, the
    /// profile, the email link and the address change.
    public nonisolated var accounts: Accounts { Accounts(host: self) }
}

/// The account as a person sees it: sign in or out, create or link an account, merges, the
/// profile, sign-in links and address changes. The accounts feature's public face
/// (`service.accounts.signIn(…)`); its steps run on the session's owner (``SessionHost``).
public struct Accounts: Sendable {
    let host: SessionService

    /// Signs in anonymously when nobody is signed in; returns the current state when already
    /// anonymous.
    /// - Throws: `already-signed-in` for an account; a backend error while offline.
    public func signInAnonymously() async throws(AuthError) -> AuthState {
        try await host.signInAnonymously()
    }

    /// Signs out. From an account, back to a fresh anonymous user; from an anonymous user only
    /// with `reset` (its account is deleted at the backend). `scope` `others` ends the
    /// account's other sessions and keeps this one; `everywhere` ends every session.
    /// - Throws: `operation-not-allowed` where the backend cannot end other sessions.
    public func signOut(reset: Bool, scope: SignOutScope = .local) async throws(AuthError) -> AuthState {
        try await host.signOut(reset: reset, scope: scope)
    }

    /// Ends the session for good at a kiosk's stop (`session.persistence = "memory"`): a guest
    /// is deleted at the backend, an account signed out there; no guest follows. False when
    /// the backend could not be reached.
    @discardableResult
    public func endSessionAtStop() async -> Bool {
        await host.endSessionAtStop()
    }

    /// Deletes the signed-in account at the backend, then continues as after a sign-out.
    public func deleteAccount() async throws(AuthError) -> AuthState {
        try await host.deleteAccount()
    }

    /// Reads the account's profile from the backend again.
    public func reload() async throws(AuthError) -> AuthState {
        try await host.reload()
    }

    /// Changes the display name (nil or empty removes it).
    public func updateProfile(displayName: String?) async throws(AuthError) -> AuthState {
        try await host.updateProfile(displayName: displayName)
    }

    /// Sends a verification email to the account's address.
    public func sendEmailVerification() async throws(AuthError) {
        try await host.sendEmailVerification()
    }

    /// Sends a password-reset email to an email address, or to a username's address.
    public func sendPasswordReset(identifier: String) async throws(AuthError) {
        try await host.sendPasswordReset(identifier: identifier)
    }

    /// Creates an email/password account: linked to the anonymous user (uid kept), or a new
    /// account when signed out. The steps (and their undo) are ``AccountCreation``'s.
    public func createAccount(
        email: String, password: String, username: String? = nil
    ) async throws(AuthError)
        -> AuthState
    {
        try await host.createAccount(email: email, password: password, username: username)
    }

    /// Signs in with an email or username and a password. From an anonymous user this records
    /// a merge of the guest into the account.
    public func signIn(identifier: String, password: String) async throws(AuthError) -> SessionService.SignInOutcome {
        try await host.signIn(identifier: identifier, password: password)
    }

    /// Signs in with a federated identity: linked to the anonymous user when it is new, else
    /// signs in to the account that has it (recording a merge from a guest).
    public func signInWithIdp(
        providerId: String, idToken: String?, accessToken: String?
    ) async throws(AuthError)
        -> SessionService.SignInOutcome
    {
        try await host.signInWithIdp(providerId: providerId, idToken: idToken, accessToken: accessToken)
    }

    /// Adds a sign-in method to the current user. The steps are ``CredentialLink``'s.
    ///
    /// An email-link credential with an empty email uses the address remembered from the last
    /// `sendSignInLink` (`missing-email` when there is none), and forgets it once linked.
    public func linkCredential(_ credential: Credential) async throws(AuthError) -> AuthState {
        try await host.linkCredential(credential)
    }

    /// Removes a sign-in method from the account (`password` removes email sign-in both ways).
    public func unlink(providerId: String) async throws(AuthError) -> AuthState {
        try await host.unlink(providerId: providerId)
    }

    /// Completes a pending merge: the guest account is deleted at the backend.
    public func completeMerge(mergeId: String) async throws(AuthError) -> AuthState {
        try await host.completeMerge(mergeId: mergeId)
    }

    /// Sends a passwordless sign-in link and remembers the address durably.
    public func sendSignInLink(email: String, continueUrl: String?) async throws(AuthError) -> String {
        try await host.sendSignInLink(email: email, continueUrl: continueUrl)
    }

    /// Completes a sign-in link: links the email to the anonymous user when it has no account,
    /// else signs in to the account (recording a merge from a guest).
    ///
    /// The link's code is single-use and spent even when the call fails, so the choice between
    /// linking and signing in is made before it is spent, and it is never retried blindly.
    ///
    /// Without `email`, the address remembered from ``sendSignInLink(email:continueUrl:)`` is
    /// used; when the backend says the proof belongs to another address, that is `missing-email`.
    public func completeSignInLink(
        _ proof: EmailSignInProof, email: String?
    ) async throws(AuthError) -> SessionService.SignInOutcome {
        try await host.completeSignInLink(proof, email: email)
    }

    /// Starts an address change, verified before it is made; returns the pending address.
    public func changeEmail(newEmail: String) async throws(AuthError) -> String {
        try await host.changeEmail(newEmail: newEmail)
    }
}
