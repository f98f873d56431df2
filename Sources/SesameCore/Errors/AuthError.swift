import Foundation

/// A domain error the person or the calling program can act on.
///
/// Every case maps onto a `data.reason` of the wire protocol; `message` is a sentence that
/// says what to do next and never contains a secret (no token, password, code or link).
public struct AuthError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The stable reason, spelled as on the wire.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        // The person must do something (wire code 1000).
        case secondFactorRequired = "second-factor-required"
        case invalidVerificationCode = "invalid-verification-code"
        case expiredSignInFlow = "expired-sign-in-flow"
        case signInCancelled = "sign-in-cancelled"
        case accessDenied = "access-denied"
        case invalidCustomToken = "invalid-custom-token"
        case emailAlreadyInUse = "email-already-in-use"
        case credentialAlreadyInUse = "credential-already-in-use"
        case accountExistsWithDifferentCredential = "account-exists-with-different-credential"
        case invalidEmail = "invalid-email"
        case weakPassword = "weak-password"
        case invalidLoginCredentials = "invalid-login-credentials"
        case userNotFound = "user-not-found"
        case userDisabled = "user-disabled"
        case operationNotAllowed = "operation-not-allowed"
        case invalidActionCode = "invalid-action-code"
        case expiredActionCode = "expired-action-code"
        case missingEmail = "missing-email"
        case invalidCredential = "invalid-credential"
        case requiresRecentLogin = "requires-recent-login"
        case providerAlreadyLinked = "provider-already-linked"
        case noSuchProvider = "no-such-provider"
        case invalidUsername = "invalid-username"
        case usernameTaken = "username-taken"
        case usernameReserved = "username-reserved"
        case usernameNotFound = "username-not-found"
        // The backend could not be reached or refused for now (wire code 2000).
        case networkRequestFailed = "network-request-failed"
        case backendUnavailable = "backend-unavailable"
        case tooManyRequests = "too-many-requests"
        // The operation does not fit the current state (wire code 4000).
        case noCurrentUser = "no-current-user"
        case requiresAccount = "requires-account"
        case alreadySignedIn = "already-signed-in"
        case requiresResetConfirmation = "requires-reset-confirmation"
        case operationInProgress = "operation-in-progress"
        case noSuchMerge = "no-such-merge"
        case sessionRevoked = "session-revoked"
        case credentialsChanged = "credentials-changed"
    }

    /// Which kind of problem a reason is; the wire code follows from it.
    public enum Category: Sendable, Hashable {
        case authentication
        case backend
        case state
    }

    public var reason: Reason
    public var message: String
    /// The email a conflict is about, when known.
    public var email: String?
    /// The provider a conflict is about.
    public var providerId: String?
    /// The sign-in methods an existing account has (`account-exists-with-different-credential`).
    public var providers: [String]?
    /// How long to wait before retrying (backend errors).
    public var retryAfterMs: Int?
    /// The open challenge (`second-factor-required`): its id, factors and expiry.
    public var challenge: SecondFactorChallenge?
    /// The backend's half-done sign-in that a `second-factor-required` from the backend carries
    /// to the flow that opens the challenge; never compared, printed or sent to a client.
    public var pendingSecondFactor: PendingSecondFactor? {
        get { carried.pending }
        set { carried = CarriedSecondFactor(pending: newValue) }
    }
    private var carried = CarriedSecondFactor(pending: nil)

    /// The wait (seconds) a rate-limited backend asked for; nil for every other error.
    public var rateLimitWait: TimeInterval? {
        guard reason == .tooManyRequests else { return nil }
        return retryAfterMs.map { TimeInterval($0) / 1000 }
    }

    public init(
        _ reason: Reason, message: String? = nil, email: String? = nil, providerId: String? = nil,
        providers: [String]? = nil, retryAfterMs: Int? = nil, challenge: SecondFactorChallenge? = nil
    ) {
        self.challenge = challenge
        self.reason = reason
        self.message = message ?? reason.defaultMessage
        self.email = email
        self.providerId = providerId
        self.providers = providers
        self.retryAfterMs = retryAfterMs ?? (reason.category == .backend ? 1000 : nil)
    }

    public var category: Category { reason.category }

    /// This error without the pending sign-in it carried.
    public var withoutPendingSecondFactor: AuthError {
        var error = self
        error.pendingSecondFactor = nil
        return error
    }

    /// This error carrying `pending` (see ``pendingSecondFactor``).
    public func carrying(_ pending: PendingSecondFactor) -> AuthError {
        var error = self
        error.pendingSecondFactor = pending
        return error
    }

    public var description: String { "AuthError(\(reason.rawValue)): \(message)" }

    /// A conflict (`email-already-in-use`, `credential-already-in-use`,
    /// `account-exists-with-different-credential`) with what the person needs to act on it
    /// filled in where the backend left it out; any other error unchanged.
    public func addingConflictDetails(email: String?, providerId: String) -> AuthError {
        var error = self
        switch reason {
        case .emailAlreadyInUse, .credentialAlreadyInUse:
            if error.email == nil { error.email = email }
            if error.providerId == nil { error.providerId = providerId }
        case .accountExistsWithDifferentCredential:
            if error.email == nil { error.email = email }
        default: break
        }
        return error
    }
}

extension AuthError.Reason {
    public var category: AuthError.Category {
        switch self {
        case .networkRequestFailed, .backendUnavailable, .tooManyRequests: .backend
        case .noCurrentUser, .requiresAccount, .alreadySignedIn, .requiresResetConfirmation,
            .operationInProgress, .noSuchMerge, .sessionRevoked, .credentialsChanged:
            .state
        default: .authentication
        }
    }

    /// A sentence that tells the person what to do next.
    public var defaultMessage: String {
        switch self {
        case .secondFactorRequired:
            "This account has a second factor: enter the code from your authenticator app (completeSecondFactor)."
        case .invalidVerificationCode:
            "That code is wrong or no longer current: enter the code your authenticator app shows now."
        case .expiredSignInFlow: "The sign-in took too long and expired: start it again."
        case .signInCancelled: "The sign-in was cancelled: start it again when you are ready."
        case .accessDenied: "The sign-in was declined at the identity provider: start it again to retry."
        case .invalidCustomToken:
            "The sign-in token is malformed, expired or refused: ask the project's server for a new one."
        case .emailAlreadyInUse:
            "That email already has an account: sign in to it instead; your guest data will be merged into it."
        case .credentialAlreadyInUse:
            "That sign-in is already linked to another account: sign in with it instead; your guest data will be merged."
        case .accountExistsWithDifferentCredential:
            "An account with that email exists with another sign-in method: sign in with that method first, then link this one."
        case .invalidEmail: "That email address is not valid: check it and try again."
        case .weakPassword: "That password is too weak: use at least 6 characters."
        case .invalidLoginCredentials: "The email, username or password is wrong: check them and try again."
        case .userNotFound: "There is no account for that: check it, or create an account."
        case .userDisabled: "That account has been disabled by an administrator."
        case .operationNotAllowed: "That sign-in method is not enabled for this project."
        case .invalidActionCode: "That link is invalid or was already used: request a new one."
        case .expiredActionCode: "That link has expired: request a new one."
        case .missingEmail: "Give the email address the link was sent to."
        case .invalidCredential:
            "The identity provider's credential is invalid or malformed: sign in with the provider again."
        case .requiresRecentLogin:
            "This needs a recent sign-in: prove it with reauthenticate (sesamectl reauth), then retry."
        case .providerAlreadyLinked: "That sign-in method is already linked to this account."
        case .noSuchProvider: "This account has no such sign-in method."
        case .invalidUsername:
            "Usernames are 3 to 32 letters, digits, '_', '-' or '.', in one script, without '@'."
        case .usernameTaken: "That username is taken: choose another."
        case .usernameReserved: "That username is reserved: choose another."
        case .usernameNotFound: "There is no account with that username."
        case .networkRequestFailed: "The backend could not be reached: check the network; the daemon retries by itself."
        case .backendUnavailable: "The backend is unavailable right now: try again shortly."
        case .tooManyRequests: "The backend asks to slow down: try again shortly."
        case .noCurrentUser: "Nobody is signed in."
        case .requiresAccount: "This needs a signed-in account, not a guest: create an account or sign in first."
        case .alreadySignedIn: "An account is already signed in: sign out first."
        case .requiresResetConfirmation:
            "Signing out a guest deletes the guest's data: pass reset: true (sesamectl sign-out --reset) to confirm."
        case .operationInProgress: "Another operation is in progress: try again when it has finished."
        case .noSuchMerge: "There is no such pending merge."
        case .sessionRevoked: "The session was revoked by the backend; a new guest session is being created."
        case .credentialsChanged:
            "The account's password or email address changed, which ended this session: sign in again with the new one."
        }
    }
}

/// A pending sign-in riding in an ``AuthError``: equal to any other, so it never changes what
/// an error compares or hashes as.
private struct CarriedSecondFactor: Sendable, Hashable {
    let pending: PendingSecondFactor?
    static func == (lhs: Self, rhs: Self) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}
