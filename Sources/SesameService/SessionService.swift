import Foundation
import Logging
import SesameCore

/// The one owner of the machine's session.
///
/// Every mutation goes through ``SessionMachine``: the actor feeds it what the backend answered,
/// then performs its actions in order — persist first, then notify through ``SessionEvents``
/// (its sinks in the same actor turn, then ``events()``). Methods that change the session run
/// one at a time in arrival order (``SessionLocks``); reads and token requests are answered
/// meanwhile. Because the actor is reentrant, every flow re-checks the session after each
/// `await` before acting on what it read earlier.
///
/// Each stored property has one owner-purpose: the `ports` (backend, keyring, journal, clock),
/// the session itself (`machine`), and the collaborators that own the rest: ``SessionEvents``
/// (who hears what changed), ``MaintenanceScheduler`` (what background work is due when, and
/// the child tasks of ``run()``), ``SessionLocks`` (the order of flows and of changes),
/// ``SessionFeatures`` (each feature's own fields), ``SignInFlows`` (the interactive sign-in
/// flows, in memory only) and ``SecondFactors`` (the open second-factor challenge and the other
/// account-security secrets, in memory only).
///
/// The features beside it (``Tokens``, ``Accounts``, ``Usernames``, ``AccountSecurity``) reach
/// the session only through ``SessionHost``, which this actor implements.
public actor SessionService: SessionHost {
    /// The backend, the keyring, the journal and the clock.
    nonisolated let ports: SessionPorts
    var machine: SessionMachine
    var eventBus = SessionEvents()
    let maintenance: MaintenanceScheduler
    /// The features' own fields (``SessionFeatures``), reached through ``SessionHost``.
    let features: SessionFeatures
    var locks = SessionLocks()

    /// - Parameters:
    ///   - provider: the authentication backend.
    ///   - store: where the session is persisted.
    ///   - directory: the username directory; nil when usernames are off.
    ///   - deviceAuthorization: the identity providers' device endpoints (`[oauth.<id>]`); nil
    ///     when none is configured (device flows are then `operation-not-allowed`).
    ///   - clock: the clock for expiry and waiting; tests pass a manual one.
    public init<C: WallClock>(
        provider: any RemoteAuthProvider, store: any SessionStore, directory: (any UsernameDirectory)? = nil,
        deviceAuthorization: (any DeviceAuthorizationClient)? = nil, clock: C,
        configuration: SessionServiceConfiguration = .init(), logger: Logger
    ) {
        let now: @Sendable () -> Date = { clock.date }
        self.ports = SessionPorts(
            provider: provider, store: store, logger: logger, now: now, calendarOffset: { clock.calendarOffset })
        self.machine = SessionMachine(anonymousFirst: configuration.anonymousFirst)
        self.maintenance = MaintenanceScheduler(
            now: now, sleeper: ClockSleeper(clock: clock), refreshMargin: configuration.refreshMargin,
            mergeHold: configuration.mergeHold, firstGuestWindow: configuration.firstGuestWindow)
        self.features = SessionFeatures(
            usernames: directory.map { UsernameFlows(directory: $0, configuration: configuration) },
            signInFlows: SignInFlows(deviceAuthorization: deviceAuthorization, sleeper: ClockSleeper(clock: clock)),
            secondFactors: SecondFactors(sleeper: ClockSleeper(clock: clock)))
    }

    /// Every change from now on, in order, as the service performs it (after it is persisted):
    /// first a ``SessionEvent/Kind/snapshot`` of the current state, then each event. The
    /// stream buffers without limit, ends after ``shutdown(reason:)``, and may be opened any
    /// number of times.
    public func events() -> AsyncStream<SessionEvent> {
        let offset = calendarOffset()
        return eventBus.open(state: makeState(offset), token: machine.session?.idToken, calendarOffset: offset)
    }

    /// Hands every change to `sink` synchronously, in the actor turn that makes it: first a
    /// snapshot of the current state (before this returns), then each event, until
    /// ``shutdown(reason:)``. A flow returns only after `sink` has had every event it caused,
    /// so whatever `sink` queues goes out before the flow's answer. `sink` must not block and
    /// must not call the service.
    public func publish(to sink: @escaping @Sendable (SessionEvent) -> Void) {
        let offset = calendarOffset()
        eventBus.add(sink, state: makeState(offset), token: machine.session?.idToken, calendarOffset: offset)
    }

    /// How many events were emitted (each event's ``SessionEvent/index``).
    public var emittedEvents: Int64 { eventBus.emitted }

    /// Loads the keyring. After it returns, the state is no longer `starting`.
    /// - Throws: ``SessionStoreError`` when the keyring cannot be read (never overwritten).
    public func start() async throws(SessionStoreError) {
        let stored = try await ports.store.load()
        if let stored, let session = stored.session {
            logger.info("Loaded the session from the keyring", metadata: ["session.uid": "\(session.uid)"])
        } else {
            logger.info("No stored session; starting fresh")
        }
        await apply(.loaded(stored))
        if stored == nil, machine.anonymousFirst, maintenance.spreadFirstGuest(random: .random(in: 0...1)) {
            logger.info(
                "A fresh machine: the first guest is created within session.first_guest_window",
                metadata: ["at": "\(maintenance.plan.anonymousAt.map { "\($0)" } ?? "-")"])
        }
    }

    /// The backend's name (`firebase`, `supabase`), as `hello` reports it.
    public nonisolated var backendName: String { provider.backendName }

    /// The current state, as clients see it.
    public var state: AuthState { makeState(calendarOffset()) }

    /// Tells subscribers the daemon is stopping (once), without stopping anything.
    public func announceShutdown(reason: String = "stopping") {
        let offset = calendarOffset()
        eventBus.announceShutdown(
            reason: reason, state: makeState(offset), token: machine.session?.idToken, calendarOffset: offset)
    }

    /// Tells subscribers the daemon is stopping, stops background work (``run()`` returns) and
    /// ends every event stream. An open sign-in flow is cancelled (its waiters get
    /// `sign-in-cancelled`): flows live in memory and a restart does not resume them.
    public func shutdown(reason: String = "stopping") {
        for waiter in features.signInFlows.abandon() { waiter.answer(.failure(AuthError(.signInCancelled))) }
        features.secondFactors.abandon()
        features.accountSecrets.abandon()
        announceShutdown(reason: reason)
        maintenance.stop()
        eventBus.finish()
    }

    // MARK: - Applying events

    /// Feeds one event to the machine and performs its actions, atomically with respect to
    /// other events: persist, then notify, in the machine's order.
    func apply(_ events: SessionMachine.Event...) async {
        await acquire(\.changes)
        defer { locks.changes.release() }
        for event in events { await perform(machine.handle(event)) }
    }

    /// Performs the machine's actions in order (the caller holds the change lock).
    private func perform(_ actions: [SessionMachine.Action]) async {
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
                maintenance.handle(.anonymousNeeded(at: now()))
            case .processDeletions:
                maintenance.handle(.cleanupNeeded(at: now()))
            case .rescheduleRefresh:
                maintenance.planRefresh(of: machine.session)
            }
        }
    }

    /// Writes the state; on failure keeps it in memory and plans the write again.
    func persist() async {
        do {
            try await ports.store.save(machine.persisted)
            maintenance.handle(.keyringWritten)
        } catch {
            // The state stays in memory and is written again with the next change or by the
            // maintenance loop (backoff); clients are still told, since the in-memory session is
            // what the daemon serves (docs/configuration.md, "When the keyring cannot be written").
            logger.critical(
                "Could not write the keyring; the change is kept in memory and written again later",
                metadata: ["error": "\(error.message)"])
            maintenance.handle(.keyringWriteFailed(at: now(), random: .random(in: 0...1)))
        }
    }

    func emit(_ kind: SessionEvent.Kind) {
        let offset = calendarOffset()
        eventBus.emit(
            kind.onCalendar(offset), state: makeState(offset), token: machine.session?.idToken, calendarOffset: offset)
    }

    /// The state as clients see it: its dates on the calendar, `offset` ahead of the daemon's
    /// steady timeline (``SteadyClock``).
    func makeState(_ offset: TimeInterval) -> AuthState {
        let session = machine.session
        let status = machine.status
        return AuthState(
            status: status,
            user: session?.user,
            tokenExpiresAt: session?.idToken.expiresAt,
            connectivity: machine.connectivity,
            needsUsername: features.usernames?.required == true && status == .authenticated
                && session?.user.username == nil,
            pendingMerges: machine.persisted.pendingMerges.map(\.merge), sequence: eventBus.sequence,
            signInPrompt: features.signInFlows.prompt, secondFactor: features.secondFactors.challenge,
            rateLimit: machine.rateLimit
        ).onCalendar(offset)
    }

    // MARK: - Flow serialisation

    /// Waits for `lock` behind everyone who asked before, then holds it; the caller releases it
    /// (`defer { locks.changes.release() }`).
    func acquire(_ lock: WritableKeyPath<SessionLocks, FIFOLock>) async {
        guard !locks[keyPath: lock].tryAcquire() else { return }
        await withCheckedContinuation { locks[keyPath: lock].enqueue($0) }
    }

    /// Runs `body` as the only session-changing flow, after the ones that arrived before it.
    func exclusively<T: Sendable>(_ body: () async throws(AuthError) -> T) async throws(AuthError) -> T {
        await acquire(\.flows)
        defer { locks.flows.release() }
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
            await apply(connectivityEvent(after: error))
            throw error
        }
    }
}
