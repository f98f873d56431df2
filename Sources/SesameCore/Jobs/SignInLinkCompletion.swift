/// `completeSignInLink` as a pure step machine: events in, the next action out.
///
/// The proof (link or one-time code) is single-use and spent by the one call that uses it,
/// even when that call fails, so the choice is made before it: a guest whose address has no
/// account links it in place (uid kept); otherwise, or when the backend hides the address's
/// methods, the proof signs in, and from a guest that records a merge. Then the remembered
/// link address is forgotten. Without an address given, `invalid-email` (the proof belongs to
/// another address than the remembered one) becomes `missing-email`.
///
/// Nothing of the flow is written before the proof is spent: a crash before it changes
/// nothing; a crash after it leaves the keyring with the guest and the remembered address, and
/// the proof is spent (the person asks for a new link; if the link in place had landed, the new
/// one signs in to the same uid, an update and no merge).
public struct SignInLinkCompletion: Sendable, Hashable {
    public enum Action: Sendable, Hashable {
        /// Ask the backend for the address's sign-in methods (a guest only).
        case checkEmail(String)
        /// Spend the proof linking the address to the guest.
        case linkToGuest
        /// Spend the proof signing in to the address's account.
        case signIn
        /// The guest became an account in place (uid kept).
        case adoptLinked
        /// Adopt the sign-in: an update for the same uid, a merge from a guest, else a switch.
        case adoptSignIn
        /// Forget the address remembered from `sendSignInLink`, when it is this one.
        case forgetEmailLinkAddress(String)
        case done
        case fail(AuthError)
    }

    public enum Event: Sendable, Hashable {
        /// The address's sign-in methods; nil when the backend hides them.
        case signInMethods([String]?)
        /// The proof was spent; the account it answered for.
        case signedIn(uid: String)
        case adopted
        case forgotten
        /// The last backend call failed.
        case failed(AuthError)
    }

    private enum Stage: Sendable, Hashable {
        case check, link, signIn, adopt, forget
    }

    public let email: String
    public let emailGiven: Bool
    public let guestUid: String?
    private var stage: Stage = .signIn

    /// - Parameters:
    ///   - email: the address the proof is for (given, or remembered).
    ///   - emailGiven: whether the caller gave it (else it is the remembered one).
    ///   - guestUid: the anonymous user's uid; nil when the session is an account or there is none.
    public init(email: String, emailGiven: Bool, guestUid: String?) {
        self.email = email
        self.emailGiven = emailGiven
        self.guestUid = guestUid
    }

    public mutating func start() -> Action {
        guard guestUid != nil else {
            stage = .signIn
            return .signIn
        }
        stage = .check
        return .checkEmail(email)
    }

    public mutating func handle(_ event: Event) -> Action {
        switch (stage, event) {
        case (.check, .signInMethods(let methods)):
            // Hidden methods count as an account: signing in (and merging) never loses data,
            // linking onto a taken address would spend the proof for nothing.
            if methods?.isEmpty == true {
                stage = .link
                return .linkToGuest
            }
            stage = .signIn
            return .signIn
        case (.link, .signedIn(let uid)):
            stage = .adopt
            return uid == guestUid ? .adoptLinked : .adoptSignIn
        case (.signIn, .signedIn):
            stage = .adopt
            return .adoptSignIn
        case (.adopt, .adopted):
            stage = .forget
            return .forgetEmailLinkAddress(email)
        case (.forget, .forgotten):
            return .done
        case (.link, .failed(let error)):
            return fail(error.addingConflictDetails(email: email, providerId: "password"))
        case (.check, .failed(let error)), (.signIn, .failed(let error)):
            return fail(error)
        default:
            // An event the last action cannot produce: stop rather than guess.
            return .fail(AuthError(.backendUnavailable))
        }
    }

    private func fail(_ error: AuthError) -> Action {
        guard error.reason == .invalidEmail, !emailGiven else { return .fail(error) }
        return .fail(
            AuthError(
                .missingEmail,
                message:
                    "That link was sent to another address than the remembered one: give the address it was sent to (--email)."
            ))
    }
}
