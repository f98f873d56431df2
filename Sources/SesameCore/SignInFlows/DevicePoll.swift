import Foundation

/// The polling of one device flow (RFC 8628 §3.4–3.5), as a pure machine: the service performs
/// each ``Action`` (waits on its clock, polls, signs in) and feeds back what happened.
///
/// - `authorization_pending` waits ``interval`` and polls again; `slow_down` adds 5 seconds to
///   the interval for this and every later poll (or takes the provider's new one when longer).
/// - `access_denied` ends the flow `failed` (`access-denied`); `expired_token`, or the deadline
///   passing, ends it `expired` (`expired-sign-in-flow`).
/// - A transient failure of a poll (transport, 5xx, 429) polls again after a backoff, never
///   sooner than the interval: an approval the provider holds is still there at the next poll.
/// - An approval is kept: when the sign-in with its credential fails for a transient reason
///   (the backend is down), it is tried again with backoff until it succeeds, is refused (the
///   flow fails with that error) or the deadline passes.
public struct DevicePoll: Sendable, Hashable {
    /// What the service does next.
    public enum Action: Sendable, Hashable {
        /// Sleep this many seconds, then feed ``Event/woke``.
        case wait(TimeInterval)
        /// Poll the provider's token endpoint once.
        case poll
        /// Sign in with the provider's credential by `signInWithIdp`'s rules.
        case signIn(FederatedCredential)
        /// The flow ends with this status (`failed` or `expired`) and error.
        case end(SignInFlow.Status, AuthError)
    }

    /// What happened.
    public enum Event: Sendable, Hashable {
        case woke
        case answered(DevicePollAnswer)
        /// The poll itself failed (the provider could not be reached, or refused).
        case pollFailed(RemoteAuthError)
        /// The sign-in with the approved credential failed.
        case signInFailed(AuthError)
    }

    private enum Phase: Sendable, Hashable {
        case polling
        case signingIn(FederatedCredential)
        case ended(SignInFlow.Status, AuthError)
    }

    /// The seconds between polls now.
    public private(set) var interval: TimeInterval
    /// When the flow expires.
    public let deadline: Date
    private var phase = Phase.polling
    private var backoff: Backoff

    /// The seconds `slow_down` adds to the interval (RFC 8628 §3.5).
    public static let slowDownStep: TimeInterval = 5

    public init(
        interval: TimeInterval, deadline: Date, backoff: Backoff = Backoff(initial: .seconds(2), maximum: .seconds(60))
    ) {
        self.interval = interval > 0 ? interval : 5
        self.deadline = deadline
        self.backoff = backoff
    }

    /// The first action: wait one interval before the first poll.
    public func start(at now: Date) -> Action {
        wait(interval, at: now)
    }

    /// Feeds what happened; `random` (0...1) spreads backoff delays.
    public mutating func handle(_ event: Event, at now: Date, random: Double) -> Action {
        switch (phase, event) {
        case (.ended(let status, let error), _):
            return .end(status, error)
        case (.polling, .woke):
            return now >= deadline ? end(.expired, AuthError(.expiredSignInFlow)) : .poll
        case (.signingIn(let credential), .woke):
            return now >= deadline ? end(.expired, AuthError(.expiredSignInFlow)) : .signIn(credential)
        case (.polling, .answered(let answer)):
            return answered(answer, at: now)
        case (.polling, .pollFailed(let error)):
            guard error.isTransient else { return end(.failed, error.authError) }
            let delay = max(interval, seconds(backoff.next(random: random)), error.retryAfter ?? 0)
            return wait(delay, at: now)
        case (.signingIn, .signInFailed(let error)):
            guard error.category == .backend else { return end(.failed, error) }
            let delay = max(seconds(backoff.next(random: random)), error.rateLimitWait ?? 0)
            return wait(delay, at: now)
        case (.signingIn(let credential), _):
            // A poll answer cannot arrive while signing in; keep to the approval.
            return .signIn(credential)
        case (.polling, .signInFailed):
            return wait(interval, at: now)
        }
    }

    private mutating func answered(_ answer: DevicePollAnswer, at now: Date) -> Action {
        switch answer {
        case .pending:
            backoff.reset()
            return wait(interval, at: now)
        case .slowDown(let asked):
            backoff.reset()
            interval = max(interval + Self.slowDownStep, asked ?? 0)
            return wait(interval, at: now)
        case .denied:
            return end(.failed, AuthError(.accessDenied))
        case .expired:
            return end(.expired, AuthError(.expiredSignInFlow))
        case .approved(let credential):
            backoff.reset()
            phase = .signingIn(credential)
            return .signIn(credential)
        }
    }

    /// Waits `seconds`, but never past the deadline (the flow expires on time).
    private func wait(_ seconds: TimeInterval, at now: Date) -> Action {
        .wait(max(0, min(seconds, deadline.timeIntervalSince(now))))
    }

    private mutating func end(_ status: SignInFlow.Status, _ error: AuthError) -> Action {
        phase = .ended(status, error)
        return .end(status, error)
    }

    private func seconds(_ duration: Duration) -> TimeInterval { SaturatingTime.seconds(duration) }
}
