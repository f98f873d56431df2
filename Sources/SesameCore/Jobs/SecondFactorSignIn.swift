/// `completeSecondFactor` as a pure step machine: events in, the next action out.
///
/// The challenge was opened when a sign-in's first factor was accepted for an account with a
/// second factor; it remembers what that sign-in would have done with its tokens (``Finish``).
/// The code is checked by the backend (`verify`); a wrong code or a backend that cannot be
/// reached leaves the challenge open for another try, any other refusal closes it. Once the
/// backend accepted the code, the challenge is closed (the backend's pending credential is
/// spent) and the tokens are adopted exactly as the first call would have adopted them.
///
/// Nothing of a challenge is ever written: it lives in the daemon's memory. A crash before
/// `adoptSignIn` (or `adoptLinked`, `adoptReauthentication`) leaves the keyring as it was (the
/// guest intact, nobody signed in half-way) and the challenge gone; the person signs in again.
/// The adoption is one keyring write (a merge and the switch together); a crash after it and
/// before `forgetEmailLinkAddress` leaves only the remembered address, which the next link
/// for it forgets.
public struct SecondFactorSignIn: Sendable, Hashable {
    /// What the sign-in that opened the challenge would have done with its tokens.
    public enum Finish: Sendable, Hashable {
        /// A sign-in: the guest's own uid (a link that landed in place) is adopted as linked,
        /// any other uid by `signIn`'s rules (a merge from a guest, a replacement, an update);
        /// then, for a sign-in link, the remembered address is forgotten.
        case signIn(guestUid: String?, forgetAddress: String?)
        /// A reauthentication of `uid`: the same account only; another uid changes nothing.
        case reauthenticate(uid: String)
        /// A password reset of an account whose backend sets a password only in a session
        /// verified with the second factor (GoTrue): set it in that session, then end the session.
        /// The daemon's own session is not touched.
        case passwordReset(newPassword: String)
    }

    public enum Action: Sendable, Hashable {
        /// Send the code to the backend with the pending credential.
        case verify
        /// Close the challenge (`State.secondFactor` becomes null, `userUpdated`).
        case closeChallenge
        /// The guest became an account in place (uid kept).
        case adoptLinked
        /// Adopt the tokens by `signIn`'s rules.
        case adoptSignIn
        /// Adopt the tokens of the same account (an update).
        case adoptReauthentication
        /// Set the reset's new password in the verified session, then end that session.
        case setNewPassword
        /// Forget the address remembered from `sendSignInLink`, when it is this one.
        case forgetEmailLinkAddress(String)
        case done
        case fail(AuthError)
    }

    public enum Event: Sendable, Hashable {
        /// The backend accepted the code; the account it signed in.
        case verified(uid: String)
        case closed
        case adopted
        case forgotten
        /// The last action failed.
        case failed(AuthError)
    }

    private enum Stage: Sendable, Hashable {
        case verify, close, adopt, forget
    }

    public let finish: Finish
    private var stage: Stage = .verify
    private var uid: String?
    /// The error to fail with once the challenge is closed.
    private var closing: AuthError?

    public init(finish: Finish) {
        self.finish = finish
    }

    /// The first action; an expired challenge is closed without asking the backend.
    public mutating func start(expired: Bool) -> Action {
        guard !expired else {
            stage = .close
            closing = AuthError(
                .expiredSignInFlow, message: "The second-factor challenge expired: sign in again to get a new one.")
            return .closeChallenge
        }
        stage = .verify
        return .verify
    }

    public mutating func handle(_ event: Event) -> Action {
        switch (stage, event) {
        case (.verify, .verified(let uid)):
            self.uid = uid
            stage = .close
            return .closeChallenge
        case (.verify, .failed(let error)):
            // A wrong code or an unreachable backend: the challenge stays open for a retry.
            if error.reason == .invalidVerificationCode || error.category == .backend { return .fail(error) }
            stage = .close
            closing = error
            return .closeChallenge
        case (.close, .closed):
            if let closing { return .fail(closing) }
            stage = .adopt
            switch finish {
            case .signIn(let guestUid, _):
                return uid != nil && uid == guestUid ? .adoptLinked : .adoptSignIn
            case .reauthenticate(let expected):
                guard uid == expected else {
                    return .fail(
                        AuthError(
                            .invalidCredential,
                            message:
                                "That is another account: sign in again with the account that is signed in on this machine."
                        ))
                }
                return .adoptReauthentication
            case .passwordReset:
                return .setNewPassword
            }
        case (.adopt, .adopted):
            guard case .signIn(_, let address?) = finish else { return .done }
            stage = .forget
            return .forgetEmailLinkAddress(address)
        case (.forget, .forgotten):
            return .done
        case (.adopt, .failed(let error)), (.forget, .failed(let error)):
            return .fail(error)
        default:
            // An event the last action cannot produce: stop rather than guess.
            return .fail(AuthError(.backendUnavailable))
        }
    }
}

extension SecondFactorSignIn: StepMachine {
    public static func failed(_ error: AuthError) -> Event { .failed(error) }
}

extension SecondFactorSignIn.Finish: CustomStringConvertible {
    /// The new password of a reset, when this finishes one.
    public var newPassword: String? {
        guard case .passwordReset(let password) = self else { return nil }
        return password
    }

    public var description: String {
        switch self {
        case .signIn(let guestUid, let address):
            "signIn(guest: \(guestUid ?? "none"), forgetsAddress: \(address != nil))"
        case .reauthenticate(let uid): "reauthenticate(\(uid))"
        case .passwordReset: "passwordReset(redacted)"
        }
    }
}
