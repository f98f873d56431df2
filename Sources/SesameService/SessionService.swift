import Foundation
import Logging
import SesameCore

/// The one owner of the machine's session.
///
/// Every mutation goes through ``SessionMachine``: the actor feeds it what the backend answered,
/// then performs its actions in order — persist first, then notify through ``events()``.
/// Methods that change the session run one at a time in arrival order (a FIFO lock); reads and
/// token requests are answered meanwhile. Because the actor is reentrant, every flow re-checks
/// the session after each `await` before acting on what it read earlier.
public actor SessionService {
    let provider: any RemoteAuthProvider
    let store: any SessionStore
    let directory: (any UsernameDirectory)?
    let configuration: SessionServiceConfiguration
    let logger: Logger
    /// The injected clock's current date: the one "now" for token expiry, here and in the
    /// local API server's cached answers.
    public nonisolated let now: @Sendable () -> Date
    let sleeper: any Sleeper

    var machine: SessionMachine
    var sequence: Int64 = 1
    /// The open event streams (``events()``), by id.
    var eventStreams: [Int: AsyncStream<SessionEvent>.Continuation] = [:]
    var nextEventStream = 0
    /// How many events were emitted (each event's ``SessionEvent/index``).
    public private(set) var emittedEvents: Int64 = 0
    var flowLock = FIFOLock()
    var applyLock = FIFOLock()

    /// What background work is due when (see SessionService+Maintenance).
    var plan = MaintenancePlan()
    var inFlightRefresh: Task<Session, any Error>?
    var maintenanceWaiter: CheckedContinuation<Void, Never>?
    var maintenanceWakePending = false
    var stopped = false
    var shutdownAnnounced = false
    var deletionsRunning = false

    /// - Parameters:
    ///   - provider: the authentication backend.
    ///   - store: where the session is persisted.
    ///   - directory: the username directory; nil when usernames are off.
    ///   - clock: the clock for expiry and waiting; tests pass a manual one.
    public init<C: WallClock>(
        provider: any RemoteAuthProvider, store: any SessionStore, directory: (any UsernameDirectory)? = nil,
        clock: C, configuration: SessionServiceConfiguration = .init(), logger: Logger
    ) {
        self.provider = provider
        self.store = store
        self.directory = directory
        self.configuration = configuration
        self.logger = logger
        self.now = { clock.date }
        self.sleeper = ClockSleeper(clock: clock)
        self.machine = SessionMachine(anonymousFirst: configuration.anonymousFirst)
    }

    /// Every change from now on, in order, as the service performs it (after it is persisted):
    /// first a ``SessionEvent/Kind/snapshot`` of the current state, then each event. The
    /// stream buffers without limit, ends after ``shutdown(reason:)``, and may be opened any
    /// number of times.
    public func events() -> AsyncStream<SessionEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: SessionEvent.self)
        continuation.yield(event(.snapshot, index: emittedEvents))
        if stopped {
            continuation.finish()
            return stream
        }
        nextEventStream += 1
        let id = nextEventStream
        eventStreams[id] = continuation
        continuation.onTermination = { _ in Task { await self.closeEventStream(id) } }
        return stream
    }

    private func closeEventStream(_ id: Int) {
        eventStreams[id] = nil
    }

    /// Loads the keyring. After it returns, the state is no longer `starting`.
    /// - Throws: ``SessionStoreError`` when the keyring cannot be read (never overwritten).
    public func start() async throws(SessionStoreError) {
        let stored = try await store.load()
        if let stored, let session = stored.session {
            logger.info("Loaded the session from the keyring", metadata: ["session.uid": "\(session.uid)"])
        } else {
            logger.info("No stored session; starting fresh")
        }
        await apply(.loaded(stored))
    }

    /// The backend's name (`firebase`, `supabase`), as `hello` reports it.
    public nonisolated var backendName: String { provider.backendName }

    /// The current state, as clients see it.
    public var state: AuthState { makeState() }

    /// Tells subscribers the daemon is stopping (once), without stopping anything.
    public func announceShutdown(reason: String = "stopping") {
        guard !shutdownAnnounced else { return }
        shutdownAnnounced = true
        emit(.shutdown(reason: reason))
    }

    /// Tells subscribers the daemon is stopping, stops background work (``run()`` returns) and
    /// ends every event stream.
    public func shutdown(reason: String = "stopping") {
        announceShutdown(reason: reason)
        stopped = true
        wakeMaintenance()
        for continuation in eventStreams.values { continuation.finish() }
        eventStreams = [:]
    }

    // MARK: - Applying events

    /// Feeds one event to the machine and performs its actions, atomically with respect to
    /// other events: persist, then notify, in the machine's order.
    func apply(_ event: SessionMachine.Event) async {
        await lockApply()
        defer { applyLock.release() }
        let actions = machine.handle(event)
        for action in actions {
            switch action {
            case .persist:
                await persist()
            case .notifyAuthStateChanged(let reason, let previousUid):
                emit(.authStateChanged(previousUid: previousUid, reason: reason))
            case .notifyIdTokenChanged:
                if let session = machine.session {
                    emit(.idTokenChanged(uid: session.uid, expiresAt: session.idToken.expiresAt))
                }
            case .notifyUserUpdated:
                emit(.userUpdated)
            case .notifyConnectivityChanged:
                emit(.connectivityChanged)
            case .notifyMergeRecorded(let merge):
                emit(.mergeRecorded(merge))
            case .signInAnonymously:
                plan.handle(.anonymousNeeded(at: now()))
                wakeMaintenance()
            case .processDeletions:
                plan.handle(.cleanupNeeded(at: now()))
                wakeMaintenance()
            case .rescheduleRefresh:
                planRefresh()
            }
        }
    }

    private func lockApply() async {
        if applyLock.tryAcquire() { return }
        await withCheckedContinuation { applyLock.enqueue($0) }
    }

    private func persist() async {
        do {
            try await store.save(machine.persisted)
            plan.handle(.keyringWritten)
        } catch {
            // The state stays in memory and is written again with the next change or by the
            // maintenance loop (backoff); clients are still told, since the in-memory session is
            // what the daemon serves (docs/configuration.md, "When the keyring cannot be written").
            logger.critical(
                "Could not write the keyring; the change is kept in memory and written again later",
                metadata: ["error": "\(error.message)"])
            plan.handle(.keyringWriteFailed(at: now(), random: .random(in: 0...1)))
            wakeMaintenance()
        }
    }

    /// The maintenance job after a failed write: the current state, written again.
    func rewriteKeyring() async {
        await lockApply()
        defer { applyLock.release() }
        await persist()
    }

    func emit(_ kind: SessionEvent.Kind) {
        if kind.advancesSequence { sequence += 1 }
        emittedEvents += 1
        let event = event(kind, index: emittedEvents)
        for continuation in eventStreams.values { continuation.yield(event) }
    }

    private func event(_ kind: SessionEvent.Kind, index: Int64) -> SessionEvent {
        SessionEvent(
            kind: kind, state: makeState(), sequence: sequence, currentToken: machine.session?.idToken, index: index)
    }

    func makeState() -> AuthState {
        let session = machine.session
        let status = machine.status
        return AuthState(
            status: status,
            user: session?.user,
            tokenExpiresAt: session?.idToken.expiresAt,
            connectivity: machine.connectivity,
            needsUsername: configuration.usernamesRequired && directory != nil && status == .authenticated
                && session?.user.username == nil,
            pendingMerges: machine.persisted.pendingMerges.map(\.merge), sequence: sequence)
    }

    // MARK: - Flow serialisation

    /// Runs `body` as the only session-changing flow, after the ones that arrived before it.
    func exclusively<T: Sendable>(_ body: () async throws(AuthError) -> T) async throws(AuthError) -> T {
        if !flowLock.tryAcquire() {
            await withCheckedContinuation { flowLock.enqueue($0) }
        }
        defer { flowLock.release() }
        return try await body()
    }

    // MARK: - Backend calls

    /// Calls the backend and keeps `connectivity` in step with the outcome.
    func call<T: Sendable>(_ body: () async throws(RemoteAuthError) -> T) async throws(RemoteAuthError) -> T {
        do throws(RemoteAuthError) {
            let value = try await body()
            await apply(.backendReached)
            return value
        } catch {
            if error.isTransient {
                logger.warning("Backend call failed; will retry", metadata: ["error": "\(error)"])
                await apply(.backendUnreachable)
            } else {
                await apply(.backendReached)
            }
            throw error
        }
    }
}

/// Sleeping on an injected clock, type-erased so the actor need not be generic.
protocol Sleeper: Sendable {
    func sleep(seconds: TimeInterval) async throws
}

struct ClockSleeper<C: WallClock>: Sleeper {
    let clock: C
    func sleep(seconds: TimeInterval) async throws {
        // Saturating: a deadline taken from a backend's number may be centuries away.
        try await clock.sleep(for: SaturatingTime.duration(seconds: seconds))
    }
}
