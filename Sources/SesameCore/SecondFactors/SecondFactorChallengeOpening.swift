import Foundation

/// How a sign-in that meets a second factor opens the one challenge, as a ``StepMachine``: the
/// sign-in's backend call runs; when it answers that the account has a second factor (the
/// pending sign-in riding in the error, ``AuthError/pendingSecondFactor``), the challenge
/// opens unless wrong codes locked challenges out or another one is open and this caller may
/// not replace it; the call then fails with `second-factor-required` and the challenge.
///
/// Nothing of a challenge is written: a crash at any step leaves the keyring as it was (the
/// first factor changed nothing) and the challenge gone; the person signs in again.
public struct SecondFactorChallengeOpening: Sendable, Hashable {
    public enum Action: Sendable, Hashable {
        /// Run the sign-in's backend call.
        case signIn
        /// Read the lockout left and whether a challenge is open (``Event/inspected(lockoutLeft:challengeOpen:)``).
        case inspect
        /// Refuse: wrong codes locked challenges out for this many seconds more.
        case lockedOut(TimeInterval)
        /// Open the challenge for this pending sign-in (replacing the open one).
        case open(PendingSecondFactor)
        /// The sign-in's answer stands.
        case done
        case fail(AuthError)
    }

    public enum Event: Sendable, Hashable {
        case signedIn
        case inspected(lockoutLeft: TimeInterval?, challengeOpen: Bool)
        case opened(SecondFactorChallenge)
        case failed(AuthError)
    }

    /// Whether the caller may replace (so cancel) a challenge that is open already.
    public let replacing: Bool
    private var pending: PendingSecondFactor?

    public init(replacing: Bool) {
        self.replacing = replacing
    }

    public func start() -> Action { .signIn }

    public mutating func handle(_ event: Event) -> Action {
        switch event {
        case .signedIn:
            return .done
        case .failed(let error):
            guard pending == nil, error.reason == .secondFactorRequired, error.challenge == nil,
                let carried = error.pendingSecondFactor
            else { return .fail(error.withoutPendingSecondFactor) }
            pending = carried
            return .inspect
        case .inspected(let left, let open):
            guard let pending else { return .fail(AuthError(.backendUnavailable)) }
            if let left { return .lockedOut(left) }
            if !replacing, open {
                return .fail(
                    AuthError(
                        .operationInProgress,
                        message:
                            "A sign-in on this machine waits for a second-factor code: only a manager may replace it. Try again when it is finished."
                    ))
            }
            return .open(pending)
        case .opened(let challenge):
            return .fail(AuthError(.secondFactorRequired, challenge: challenge))
        }
    }
}

extension SecondFactorChallengeOpening: StepMachine {
    public static func failed(_ error: AuthError) -> Event { .failed(error) }
}
