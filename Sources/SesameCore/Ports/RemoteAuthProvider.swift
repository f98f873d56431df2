import Foundation

/// The authentication backend, as the domain needs it. Each backend is one adapter; the
/// domain never learns which one runs.
///
/// Every method throws only ``RemoteAuthError``. Implementations never log tokens, passwords
/// or action codes. A call the backend cannot do at all throws ``RemoteAuthError/unsupported(_:)``
/// saying what to configure or deploy.
public protocol RemoteAuthProvider: Sendable {
    /// The backend's name as `hello` reports it (`firebase`, `supabase`).
    var backendName: String { get }
    /// Creates a new anonymous account and signs in to it.
    func signUpAnonymously() async throws(RemoteAuthError) -> SignInResult
    /// Exchanges a refresh token for fresh tokens.
    func refresh(_ refreshToken: RefreshToken) async throws(RemoteAuthError) -> TokenGrant
    /// The account's profile (without username, which the directory owns).
    func lookup(_ idToken: IDToken) async throws(RemoteAuthError) -> User
    /// Deletes the account the token belongs to.
    func deleteAccount(_ idToken: IDToken) async throws(RemoteAuthError)
    /// Ends the session the token belongs to at the backend (server-side sign-out), so its
    /// refresh token stops working. Backends without server-side sessions succeed at once.
    func revokeSession(_ idToken: IDToken) async throws(RemoteAuthError)
    /// Ends the account's other sessions at the backend (`.others`), or all of them, the
    /// token's own included (`.all`), so their refresh tokens stop working: each is refused at
    /// its next refresh. A backend whose clients cannot end other sessions throws
    /// `.unsupported`, saying what to deploy.
    func revokeSessions(_ idToken: IDToken, scope: SessionRevocationScope) async throws(RemoteAuthError)
    /// Creates an email/password account, or with `linkingTo` adds email/password to that
    /// account (uid kept).
    func signUp(email: String, password: String, linkingTo: IDToken?) async throws(RemoteAuthError) -> SignInResult
    /// Signs in to an existing email/password account.
    func signIn(email: String, password: String) async throws(RemoteAuthError) -> SignInResult
    /// Sends a passwordless sign-in link to `email`.
    func sendSignInLink(email: String, continueUrl: String?) async throws(RemoteAuthError)
    /// Checks, without calling the backend, that `proof` is a sign-in proof this backend takes
    /// (a sign-in link, or a code where the backend sends codes). Called before anything is
    /// spent. Throws `.rejected(invalid-action-code)` for something that is not one, and
    /// `.unsupported` for a form this backend never sends.
    func checkSignInProof(_ proof: EmailSignInProof) throws(RemoteAuthError)
    /// Spends a sign-in proof: signs in (or up), or with `linkingTo` links the email to that
    /// account. The proof is consumed even when the call fails.
    func signIn(
        email: String, proof: EmailSignInProof, linkingTo: IDToken?
    ) async throws(RemoteAuthError) -> SignInResult
    /// Signs in with a federated identity, or with `linkingTo` links it to that account.
    func signIn(federated: FederatedCredential, linkingTo: IDToken?) async throws(RemoteAuthError) -> SignInResult
    /// Checks, without calling the backend, that it can sign in with a token of this provider:
    /// `.unsupported` when it cannot (Supabase takes ID tokens only, so a provider that yields
    /// none cannot be used there). Called before a person is sent anywhere.
    func checkFederatedSignIn(providerId: String, yieldsIDToken: Bool) throws(RemoteAuthError)
    /// Starts a browser sign-in run by the backend (no client secret on this machine).
    func startBrowserSignIn(providerId: String, redirectUri: String) async throws(RemoteAuthError) -> BrowserSignInStart
    /// Finishes a browser sign-in with the URL the browser came back to (its `state` already
    /// checked), or with `linkingTo` links the identity to that account.
    func completeBrowserSignIn(
        _ start: BrowserSignInStart, callbackUrl: String, linkingTo: IDToken?
    ) async throws(RemoteAuthError) -> BrowserSignInCompletion
    /// Signs in with a token minted by the project's server (a Firebase custom token, the
    /// `hashed_token` of a Supabase admin-generated magic link). A refused token is
    /// `.rejected(invalid-custom-token)`.
    func signIn(customToken: String) async throws(RemoteAuthError) -> SignInResult
    /// The sign-in methods an email has (`password`, `emailLink`, `google.com`, …); nil when
    /// the backend hides them (email-enumeration protection).
    func signInMethods(forEmail email: String) async throws(RemoteAuthError) -> [String]?
    /// Changes profile fields; returns new tokens when the backend issued them.
    func updateProfile(_ idToken: IDToken, displayName: String?) async throws(RemoteAuthError) -> TokenGrant?
    /// Removes sign-in methods from the account.
    func unlink(_ idToken: IDToken, providerIds: [String]) async throws(RemoteAuthError)
    /// Sends a password-reset email.
    func sendPasswordReset(email: String) async throws(RemoteAuthError)
    /// Sends an email-verification email to the account's address.
    func sendEmailVerification(_ idToken: IDToken) async throws(RemoteAuthError)

    // MARK: Second factors and account security (PROTOCOL.md, "Second factors", "Account security")
    //
    // Every sign-in method above throws ``RemoteAuthError/secondFactorRequired(_:)`` when the
    // first factor was accepted for an account with a second factor (Firebase's
    // `mfaPendingCredential`; on Supabase an `aal1` session of a user with a verified factor,
    // which is never returned as a ``SignInResult``).

    /// How long after a sign-in the backend accepts sensitive calls (Firebase: 5 minutes;
    /// GoTrue: 24 hours for a password change); `reauthenticate`'s `validUntil` follows from it.
    var recentSignInWindow: TimeInterval { get }
    /// Finishes a sign-in that needs a second factor with a TOTP code. A wrong code is
    /// `.rejected(invalid-verification-code)` and the pending sign-in stays usable; a pending
    /// credential the backend no longer takes is `.rejected(expired-sign-in-flow)`.
    func completeSecondFactor(
        _ pending: PendingSecondFactor, factorId: String, code: String
    ) async throws(RemoteAuthError) -> SignInResult
    /// Starts enrolling a TOTP authenticator for the account.
    func startTotpEnrollment(
        _ idToken: IDToken, displayName: String?
    ) async throws(RemoteAuthError) -> TotpEnrollmentStart
    /// Activates a started enrolment with a current code (wrong code: `invalid-verification-code`).
    /// Returns new tokens when the backend issued them (both backends do).
    func finishTotpEnrollment(
        _ idToken: IDToken, _ start: TotpEnrollmentStart, code: String, displayName: String?
    ) async throws(RemoteAuthError) -> TokenGrant?
    /// Removes an enrolled factor; new tokens when the backend issued them.
    func unenrollFactor(_ idToken: IDToken, factorId: String) async throws(RemoteAuthError) -> TokenGrant?
    /// Asks the backend to mail the account a one-time reauthentication code (GoTrue's
    /// `/reauthenticate` nonce). `.unsupported` where the backend mails none (Firebase).
    func sendReauthenticationCode(_ idToken: IDToken) async throws(RemoteAuthError)
    /// Sets a new password (`weak-password`; `requires-recent-login` when the sign-in is too
    /// old and no `reauthenticationCode` was given where the backend takes one). Returns new
    /// tokens when the backend issued them (Firebase revokes the old ones).
    func changePassword(
        _ idToken: IDToken, newPassword: String, reauthenticationCode: String?
    ) async throws(RemoteAuthError) -> TokenGrant?
    /// Asks the backend to mail `newEmail` a confirmation (verify before change: Firebase
    /// `VERIFY_AND_CHANGE_EMAIL`, GoTrue's email change); the address changes only once its
    /// owner confirms. `email-already-in-use`, `invalid-email`, `requires-recent-login`.
    func requestEmailChange(_ idToken: IDToken, newEmail: String) async throws(RemoteAuthError)
    /// Completes a password reset from its link or code (no session needed); returns the
    /// account's email. `invalid-action-code`, `expired-action-code`, `weak-password`.
    func confirmPasswordReset(
        _ proof: EmailSignInProof, email: String?, newPassword: String
    ) async throws(RemoteAuthError) -> String
}

/// A federated identity token obtained by the app from the identity provider.
public struct FederatedCredential: Sendable, Hashable, CustomStringConvertible {
    public var providerId: String
    public var idToken: String?
    public var accessToken: String?

    public init(providerId: String, idToken: String?, accessToken: String?) {
        self.providerId = providerId
        self.idToken = idToken
        self.accessToken = accessToken
    }

    public var description: String { "FederatedCredential(\(providerId), redacted)" }
}

/// The outcome of a successful sign-in, sign-up or link.
public struct SignInResult: Sendable, Hashable {
    public var uid: String
    public var idToken: IDToken
    public var refreshToken: RefreshToken
    /// Whether the backend created the account in this call.
    public var isNewUser: Bool

    public init(uid: String, idToken: IDToken, refreshToken: RefreshToken, isNewUser: Bool) {
        self.uid = uid
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.isNewUser = isNewUser
    }
}

/// Fresh tokens from a refresh (both are replaced).
public struct TokenGrant: Sendable, Hashable {
    public var uid: String
    public var idToken: IDToken
    public var refreshToken: RefreshToken

    public init(uid: String, idToken: IDToken, refreshToken: RefreshToken) {
        self.uid = uid
        self.idToken = idToken
        self.refreshToken = refreshToken
    }
}
