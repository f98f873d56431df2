import Foundation

/// `completeSignIn` (the browser flow's callback) as a ``StepMachine``: the callback is
/// checked against the open flow, spent, used to sign in, and the flow ended with the outcome.
///
/// A callback already spent, or not the flow's (`state` differs, not under its redirect), is
/// refused and changes nothing. A provider's error ends the flow `failed`. A sign-in the
/// backend could not be reached for gives the callback back (its code was not spent) and
/// leaves the flow open for a retry; any other refusal ends the flow `failed`.
///
/// Nothing of a flow is written: a crash at any step drops the flow and the spent callbacks,
/// the keyring holds the session of before the sign-in or after it (one write), and the
/// person starts the sign-in again.
public struct BrowserFlowCompletion: Sendable, Hashable {
    /// What the open flow says of the callback.
    public enum Check: Sendable, Hashable {
        /// This callback was used already.
        case spent
        /// The flow is not open: how it ended (or `expired-sign-in-flow`).
        case notOpen(AuthError)
        /// The flow is a device flow.
        case deviceFlow
        /// The flow is past its deadline.
        case expired
        /// The callback's `state` is not the flow's.
        case foreignState
        /// The provider answered with an error (`error=` in the callback).
        case providerError(String)
        /// The callback is the flow's: sign in with it.
        case valid
    }

    public enum Action: Sendable, Hashable {
        /// Check the callback against the open flow (``Event/checked(_:)``).
        case check
        /// Mark the callback used.
        case spend
        /// Sign in with the callback by `signInWithIdp`'s rules.
        case signIn
        /// The backend was not reached: the callback's code was not spent.
        case unspend
        /// End the flow with this status and outcome (published, then its waiters answered).
        case end(SignInFlow.Status, Result<Merge?, AuthError>)
        /// The sign-in is done, with this merge.
        case done(Merge?)
        case fail(AuthError)
    }

    public enum Event: Sendable, Hashable {
        case checked(Check)
        case spent
        case signedIn(Merge?)
        case unspent
        case ended
        case failed(AuthError)
    }

    private enum Stage: Sendable, Hashable {
        case check, spendForError(AuthError), spendForSignIn, signIn, unspend(AuthError), end(Result<Merge?, AuthError>)
    }

    private var stage = Stage.check

    public init() {}

    public func start() -> Action { .check }

    public mutating func handle(_ event: Event) -> Action {
        switch (stage, event) {
        case (.check, .checked(let check)):
            return checked(check)
        case (.spendForError(let error), .spent):
            return end(.failed, .failure(error))
        case (.spendForSignIn, .spent):
            stage = .signIn
            return .signIn
        case (.signIn, .signedIn(let merge)):
            return end(.completed, .success(merge))
        case (.signIn, .failed(let error)) where error.category == .backend:
            stage = .unspend(error)
            return .unspend
        case (.signIn, .failed(let error)):
            return end(.failed, .failure(error))
        case (.unspend(let error), .unspent):
            return .fail(error)
        case (.end(let outcome), .ended):
            switch outcome {
            case .success(let merge): return .done(merge)
            case .failure(let error): return .fail(error)
            }
        case (_, .failed(let error)):
            return .fail(error)
        default:
            // An event the last action cannot produce: stop rather than guess.
            return .fail(AuthError(.backendUnavailable))
        }
    }

    private mutating func checked(_ check: Check) -> Action {
        switch check {
        case .spent:
            return .fail(
                AuthError(
                    .invalidCredential, message: "That sign-in callback was already used: start the sign-in again."))
        case .notOpen(let error):
            return .fail(error)
        case .deviceFlow:
            return .fail(
                AuthError(
                    .invalidCredential, message: "A device sign-in finishes by itself: wait for it with awaitSignIn."))
        case .expired:
            return end(.expired, .failure(AuthError(.expiredSignInFlow)))
        case .foreignState:
            return .fail(
                AuthError(
                    .invalidCredential,
                    message:
                        "That sign-in callback does not belong to this sign-in: finish it in the browser it opened."
                ))
        case .providerError(let code):
            stage = .spendForError(
                code == "access_denied"
                    ? AuthError(.accessDenied)
                    : AuthError(
                        .invalidCredential, message: "The identity provider refused the sign-in: start it again."))
            return .spend
        case .valid:
            stage = .spendForSignIn
            return .spend
        }
    }

    private mutating func end(_ status: SignInFlow.Status, _ outcome: Result<Merge?, AuthError>) -> Action {
        stage = .end(outcome)
        return .end(status, outcome)
    }
}

extension BrowserFlowCompletion: StepMachine {
    public static func failed(_ error: AuthError) -> Event { .failed(error) }
}
