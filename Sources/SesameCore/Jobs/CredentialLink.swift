/// `linkCredential` as a pure step machine: events in, the next action out.
///
/// One backend call changes anything: the link. An email link's code is spent by that call even
/// when it fails, so an address that another account has is refused before it (a listed sign-in
/// method means "taken"; hidden methods let the backend decide). After the link the session is
/// adopted (in place, as an update, or, never expected, as a sign-in to another uid), the
/// username record's email follows a changed address, and a remembered link address is forgotten.
///
/// Nothing of the flow is written before the link: a crash before it changes nothing, a crash
/// after it leaves the keyring as it was (the backend has the new method; a `reload` shows it).
public struct CredentialLink: Sendable, Hashable {
    public enum Action: Sendable, Hashable {
        /// Ask the backend for the address's sign-in methods (an email link to a new address).
        case checkEmail(String)
        /// Link the credential to the current account (the one call that changes anything).
        case link
        /// The guest became an account in place (uid kept).
        case adoptLinked
        /// The account gained a sign-in method.
        case adoptUpdated
        /// The backend answered for another uid: adopt it as a sign-in, so nothing is lost.
        case adoptAsSignIn
        /// Point the username record at the account's new email (retried durably on failure).
        case syncUsernameEmail
        /// Forget the address remembered from `sendSignInLink`, when it is this one.
        case forgetEmailLinkAddress(String)
        case done
        case fail(AuthError)
    }

    public enum Event: Sendable, Hashable {
        /// The address's sign-in methods; nil when the backend hides them.
        case signInMethods([String]?)
        /// The link succeeded; the account it answered for, and its email now.
        case linked(uid: String, email: String?)
        case adopted
        case synced
        case forgotten
        /// The last backend call failed.
        case failed(AuthError)
    }

    private enum Stage: Sendable, Hashable {
        case check, link, adopt, adoptAsSignIn, sync, forget
    }

    public let credential: Credential
    public let uid: String
    public let isAnonymous: Bool
    public let email: String?
    private var stage: Stage = .link
    private var emailChanged = false

    /// - Parameters:
    ///   - credential: what to link, with the address already resolved.
    ///   - uid, isAnonymous, email: the current account.
    public init(credential: Credential, uid: String, isAnonymous: Bool, email: String?) {
        self.credential = credential
        self.uid = uid
        self.isAnonymous = isAnonymous
        self.email = email
    }

    /// The address the credential is for, if any.
    private var credentialEmail: String? {
        switch credential {
        case .password(let email, _), .emailLink(let email, _): email
        case .federated: nil
        }
    }

    public mutating func start() -> Action {
        // The account's own address may be linked: only another one is checked.
        if case .emailLink(let address, _) = credential, email?.lowercased() != address.lowercased() {
            stage = .check
            return .checkEmail(address)
        }
        stage = .link
        return .link
    }

    public mutating func handle(_ event: Event) -> Action {
        switch (stage, event) {
        case (.check, .signInMethods(let methods)):
            if methods?.isEmpty == false {
                return .fail(AuthError(.emailAlreadyInUse, email: credentialEmail, providerId: credential.providerId))
            }
            stage = .link
            return .link
        case (.check, .failed(let error)), (.link, .failed(let error)):
            return .fail(error.addingConflictDetails(email: credentialEmail, providerId: credential.providerId))
        case (.link, .linked(let linkedUid, let newEmail)):
            guard linkedUid == uid else {
                stage = .adoptAsSignIn
                return .adoptAsSignIn
            }
            emailChanged = newEmail != nil && newEmail != email
            stage = .adopt
            return isAnonymous ? .adoptLinked : .adoptUpdated
        case (.adoptAsSignIn, .adopted):
            return .done
        case (.adopt, .adopted):
            guard emailChanged else { return forget() }
            stage = .sync
            return .syncUsernameEmail
        case (.sync, .synced):
            return forget()
        case (.forget, .forgotten):
            return .done
        default:
            // An event the last action cannot produce: stop rather than guess.
            return .fail(AuthError(.backendUnavailable))
        }
    }

    private mutating func forget() -> Action {
        guard case .emailLink(let address, _) = credential else { return .done }
        stage = .forget
        return .forgetEmailLinkAddress(address)
    }
}
