import Foundation

/// What background work is due, and when: a pure value the service's maintenance loop asks
/// and tells. It performs nothing.
///
/// Six jobs: write the keyring again after a failed write (disk full, I/O error; retried with
/// backoff, before anything else), create the anonymous user (anonymous first, retried with backoff while offline),
/// renew the token ahead of expiry (retried with backoff after a transient failure), the backend
/// cleanup list (deletions and server-side sign-outs, retried with backoff), the username
/// directory steps left by a crash (retried after a pause), and merges whose hold ran out. A job
/// is "taken" when it starts, so it is not due again until it is planned again: the loop never
/// spins on work it cannot do.
public struct MaintenancePlan: Sendable, Hashable {
    public enum Job: Sendable, Hashable {
        case writeKeyring
        case createAnonymousUser
        case refreshToken
        case cleanup
        case finishUsernameSteps
        case completeMerge(mergeId: String)
    }

    /// What the plan needs to know about the session when it is asked.
    public struct Facts: Sendable, Hashable {
        /// The keyring was loaded (nothing runs before).
        public var loaded: Bool
        public var hasSession: Bool
        public var anonymousFirst: Bool
        /// The backend cleanup list is not empty.
        public var hasCleanup: Bool
        /// Username directory steps wait (and usernames are on).
        public var hasUsernameSteps: Bool
        /// Pending merges, oldest first.
        public var merges: [Merge]
        /// How long a merge waits for a migrator before it completes by itself; 0 = never.
        public var mergeHold: TimeInterval

        public init(
            loaded: Bool, hasSession: Bool, anonymousFirst: Bool, hasCleanup: Bool = false,
            hasUsernameSteps: Bool = false, merges: [Merge] = [], mergeHold: TimeInterval = 0
        ) {
            self.loaded = loaded
            self.hasSession = hasSession
            self.anonymousFirst = anonymousFirst
            self.hasCleanup = hasCleanup
            self.hasUsernameSteps = hasUsernameSteps
            self.merges = merges
            self.mergeHold = mergeHold
        }
    }

    /// Something that happened to a job. `random` (0...1) spreads retries (jitter);
    /// `retryAfter` is the wait a rate-limited backend asked for (seconds), never shortened.
    public enum Event: Sendable, Hashable {
        /// Nobody is signed in and anonymous first is on: create the user now (backoff reset).
        case anonymousNeeded(at: Date)
        case anonymousCreated
        case anonymousFailed(at: Date, random: Double, retryAfter: TimeInterval? = nil)
        /// A new token (or none): its refresh moment, nil when there is no session. A new
        /// token is the backend's answer, so the refresh backoff starts over: one event per
        /// refresh, whoever got the token.
        case refreshPlanned(Date?)
        case refreshTaken
        /// The backend refused a call (any call) for a rate limit until this moment: the refresh
        /// is planned for then, as the probe that ends the limit (a held token stays valid
        /// meanwhile). A later ``refreshFailed(at:random:retryAfter:)`` sets its own moment.
        case rateLimited(until: Date)
        /// A transient failure: try again after the backoff.
        case refreshFailed(at: Date, random: Double, retryAfter: TimeInterval? = nil)
        /// Something was added to the cleanup list: work through it now (backoff reset).
        case cleanupNeeded(at: Date)
        case cleanupTaken
        case cleanupFailed(at: Date, random: Double, retryAfter: TimeInterval? = nil)
        case cleanupFinished
        /// Username steps were added or their pause should end: try now.
        case usernameStepsNeeded
        case usernameStepsFailed(at: Date, random: Double)
        /// Writing the keyring failed: the change lives in memory only, so write it again.
        case keyringWriteFailed(at: Date, random: Double)
        /// The keyring holds the current state (after any successful write).
        case keyringWritten
        /// The machine woke from sleep (logind's `PrepareForSleep(false)`): what waits out a
        /// backoff is tried now (the network may be back), and the refresh too when `tokenDue`
        /// (the token is within the refresh margin or expired). Backoffs are not reset: a
        /// failure goes on from where it was.
        case resumed(at: Date, tokenDue: Bool)
        /// A route or an address changed (rtnetlink), after the daemon's coalescing window:
        /// what waits out a backoff is tried now. Backoffs are not reset, so real failures
        /// stay bounded by them.
        case networkChanged(at: Date)
    }

    /// The share of a backend's `Retry-After` added at random to a retry (0.2: up to 20 % later),
    /// so machines limited together do not all come back at the same second.
    public static let retryAfterSpread = 0.2

    /// `retryAfter` as a retry waits it: never shorter, up to ``retryAfterSpread`` longer
    /// (`random` in 0...1); nil stays nil.
    public static func spread(_ retryAfter: TimeInterval?, random: Double) -> TimeInterval? {
        guard let retryAfter, retryAfter.isFinite, retryAfter > 0 else { return retryAfter }
        let share = random.isFinite ? max(0, min(1, random)) : 0
        return retryAfter * (1 + retryAfterSpread * share)
    }

    /// Pause before retrying the username directory steps (times 1...1.5, jittered).
    public static let usernameRetryDelay: TimeInterval = 5

    public private(set) var refreshAt: Date?
    public private(set) var anonymousAt: Date?
    public private(set) var cleanupAt: Date?
    /// When to write the keyring again; nil while the last write succeeded.
    public private(set) var keyringAt: Date?
    /// Not before this; nil = as soon as steps wait.
    public private(set) var usernameNotBefore: Date?
    private var refreshBackoff = Backoff()
    private var anonymousBackoff = Backoff()
    private var cleanupBackoff = Backoff()
    private var keyringBackoff = Backoff()

    public init() {}

    public mutating func handle(_ event: Event) {
        switch event {
        case .anonymousNeeded(let now):
            anonymousBackoff.reset()
            anonymousAt = now
        case .anonymousCreated:
            anonymousBackoff.reset()
            anonymousAt = nil
        case .anonymousFailed(let now, let random, let retryAfter):
            anonymousAt = now.addingTimeInterval(max(anonymousBackoff.nextDelay(random: random), retryAfter ?? 0))
        case .refreshPlanned(let at):
            refreshBackoff.reset()
            refreshAt = at
        case .refreshTaken:
            refreshAt = nil
        case .rateLimited(let until):
            refreshAt = until
        case .refreshFailed(let now, let random, let retryAfter):
            refreshAt = now.addingTimeInterval(max(refreshBackoff.nextDelay(random: random), retryAfter ?? 0))
        case .cleanupNeeded(let now):
            cleanupBackoff.reset()
            cleanupAt = now
        case .cleanupTaken:
            cleanupAt = nil
        case .cleanupFailed(let now, let random, let retryAfter):
            cleanupAt = now.addingTimeInterval(max(cleanupBackoff.nextDelay(random: random), retryAfter ?? 0))
        case .cleanupFinished:
            cleanupBackoff.reset()
            cleanupAt = nil
        case .usernameStepsNeeded:
            usernameNotBefore = nil
        case .usernameStepsFailed(let now, let random):
            usernameNotBefore = now.addingTimeInterval(Self.usernameRetryDelay * (1 + 0.5 * max(0, min(1, random))))
        case .keyringWriteFailed(let now, let random):
            keyringAt = now.addingTimeInterval(keyringBackoff.nextDelay(random: random))
        case .keyringWritten:
            keyringBackoff.reset()
            keyringAt = nil
        case .resumed(let now, let tokenDue):
            retryNow(at: now)
            if tokenDue, let planned = refreshAt { refreshAt = min(planned, now) }
        case .networkChanged(let now):
            retryNow(at: now)
        }
    }

    /// Brings every retry that waits out a backoff forward to `now`.
    private mutating func retryNow(at now: Date) {
        if refreshBackoff.attempt > 0, let planned = refreshAt { refreshAt = min(planned, now) }
        if anonymousBackoff.attempt > 0, let planned = anonymousAt { anonymousAt = min(planned, now) }
        if cleanupBackoff.attempt > 0, let planned = cleanupAt { cleanupAt = min(planned, now) }
    }

    /// Each job with the moment it is due, given the facts; jobs not planned are absent.
    public func schedule(_ facts: Facts) -> [(job: Job, at: Date)] {
        guard facts.loaded else { return [] }
        var jobs: [(job: Job, at: Date)] = []
        if let keyringAt { jobs.append((.writeKeyring, keyringAt)) }
        if !facts.hasSession, facts.anonymousFirst, let anonymousAt { jobs.append((.createAnonymousUser, anonymousAt)) }
        if facts.hasSession, let refreshAt { jobs.append((.refreshToken, refreshAt)) }
        if facts.hasCleanup, let cleanupAt { jobs.append((.cleanup, cleanupAt)) }
        if facts.hasUsernameSteps { jobs.append((.finishUsernameSteps, usernameNotBefore ?? .distantPast)) }
        if facts.mergeHold > 0 {
            for merge in facts.merges {
                jobs.append(
                    (.completeMerge(mergeId: merge.mergeId), merge.createdAt.addingTimeInterval(facts.mergeHold)))
            }
        }
        return jobs
    }

    /// The earliest moment something is due, or nil when nothing is planned.
    public func nextDeadline(_ facts: Facts) -> Date? {
        schedule(facts).map(\.at).min()
    }

    /// The jobs due at `now`, in a fixed order: the keyring first, then the user, its token,
    /// cleanup, usernames and merges.
    public func due(at now: Date, _ facts: Facts) -> [Job] {
        schedule(facts).filter { $0.at <= now }.map(\.job)
    }
}
