import Foundation

/// What enrolling a machine with a provisioning token did.
public enum ProvisioningOutcome: Sendable, Hashable {
    /// The machine signed in to the token's account (`merge` when a guest was merged into it).
    case signedIn(uid: String, merge: Merge?)
    /// An account was already signed in: the token was not used.
    case skipped
    /// The backend refused the token (or it could not be used); the session is as it was.
    case failed(AuthError)
    /// The task was cancelled (shutdown) before the token could be used.
    case cancelled
}

/// Enrolling the machine with a provisioning token (`provisioning.token_file`), as a
/// ``StepMachine``: only when nobody or a guest is signed in, checked again before every
/// attempt; a backend that cannot be reached is tried again with backoff (2 s doubling to
/// 5 minutes, or longer when it asks) for as long as it takes; a refusal, or an account with a
/// second factor (only a person can answer it), ends it. The randomness of the backoff arrives
/// in the event.
///
/// Nothing is written before the sign-in, which is one keyring write: a crash before it leaves
/// the guest (the token file is read again at the next start), after it the enrolled account
/// (the next start skips).
public struct CustomTokenEnrollment: Sendable, Hashable {
    public enum Action: Sendable, Hashable {
        /// Read whether an account is signed in (``Event/checked(accountUid:)``).
        case check
        /// Sign in with the token.
        case signIn
        /// The backend could not be reached: sleep this many seconds, then feed ``Event/woke``
        /// (and check again).
        case retry(after: TimeInterval, AuthError)
        case finish(ProvisioningOutcome)
    }

    public enum Event: Sendable, Hashable {
        /// The account signed in now, nil when nobody or a guest is.
        case checked(accountUid: String?)
        case signedIn(uid: String, merge: Merge?)
        case failed(AuthError, random: Double)
        case woke
        /// The task was cancelled.
        case cancelled
    }

    private var backoff: Backoff

    public init(backoff: Backoff = Backoff(initial: .seconds(2), maximum: .seconds(300))) {
        self.backoff = backoff
    }

    public func start() -> Action { .check }

    public mutating func handle(_ event: Event) -> Action {
        switch event {
        case .checked(.some): return .finish(.skipped)
        case .checked(nil): return .signIn
        case .woke: return .check
        case .signedIn(let uid, let merge): return .finish(.signedIn(uid: uid, merge: merge))
        case .failed(let error, let random):
            // A second factor is never retried: only a person with the authenticator can answer it.
            guard error.reason != .secondFactorRequired, error.category == .backend else {
                return .finish(.failed(error))
            }
            let delay = max(backoff.nextDelay(random: random), error.rateLimitWait ?? 0)
            return .retry(after: delay, error)
        case .cancelled: return .finish(.cancelled)
        }
    }
}

extension CustomTokenEnrollment: StepMachine {
    /// Every failure carries the backoff's randomness, so performing a step never throws.
    public static func failed(_ error: Never) -> Event {}
}
