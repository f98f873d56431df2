import Foundation

/// One device flow from its first wait to its end, as a ``StepMachine``: the polling rules are
/// ``DevicePoll``'s; this adds the sign-in's outcome and the flow's end. The service performs
/// each action (sleeps on its clock, polls the provider, signs in, publishes the end) and feeds
/// back what happened; the time and the backoff's randomness arrive in the event.
///
/// Nothing of a flow is written: a crash (or restart) at any step drops the flow, the session is
/// as the keyring holds it, and the person starts the sign-in again. A flow that ended
/// elsewhere (cancelled, replaced by a new one) answers ``Event/closed`` to whatever step, and
/// the machine stops.
public struct DeviceFlowSignIn: Sendable, Hashable {
    /// How the flow ended: the merge its sign-in recorded, or its error.
    public typealias Outcome = Result<Merge?, AuthError>

    public enum Action: Sendable, Hashable {
        /// Sleep this many seconds, then feed ``Event/woke(at:)``.
        case wait(TimeInterval)
        /// Poll the provider's token endpoint once.
        case poll
        /// Sign in with the approved credential by `signInWithIdp`'s rules.
        case signIn(FederatedCredential)
        /// End the flow with this status and outcome (published, then its waiters answered).
        case end(SignInFlow.Status, Outcome)
        /// The flow is over; nothing more to do.
        case stop
    }

    public enum Event: Sendable, Hashable {
        case woke(at: Date)
        case answered(DevicePollAnswer, at: Date, random: Double)
        case pollFailed(RemoteAuthError, at: Date, random: Double)
        case signedIn(Merge?)
        case signInFailed(AuthError, at: Date, random: Double)
        /// The end was published.
        case ended
        /// The flow is no longer open (cancelled or replaced).
        case closed
    }

    private var poll: DevicePoll

    public init(poll: DevicePoll) {
        self.poll = poll
    }

    /// The first action: one interval's wait before the first poll.
    public func start(at now: Date) -> Action {
        Self.action(poll.start(at: now))
    }

    public mutating func handle(_ event: Event) -> Action {
        switch event {
        case .woke(let now): Self.action(poll.handle(.woke, at: now, random: 0))
        case .answered(let answer, let now, let random):
            Self.action(poll.handle(.answered(answer), at: now, random: random))
        case .pollFailed(let error, let now, let random):
            Self.action(poll.handle(.pollFailed(error), at: now, random: random))
        case .signedIn(let merge): .end(.completed, .success(merge))
        case .signInFailed(let error, let now, let random):
            Self.action(poll.handle(.signInFailed(error), at: now, random: random))
        case .ended, .closed: .stop
        }
    }

    private static func action(_ step: DevicePoll.Action) -> Action {
        switch step {
        case .wait(let seconds): .wait(seconds)
        case .poll: .poll
        case .signIn(let credential): .signIn(credential)
        case .end(let status, let error): .end(status, .failure(error))
        }
    }
}

extension DeviceFlowSignIn: StepMachine {
    /// Every step's failure is an event of its own (it needs the time), so performing one never throws.
    public static func failed(_ error: Never) -> Event {}
}
