import Foundation
import Logging
import SesameCore

/// What a feature may do with the session: the narrow face of ``SessionService`` that features
/// (tokens, accounts, usernames, sign-in flows, second factors, account security) are written
/// against. Tailscale's `ipnext.Host` and supabase-swift's `AuthMFA` namespace are the models:
/// the owner keeps the session, the event bus, the order of changes and the ports; a feature
/// keeps its own fields and reaches the session only through these requirements.
///
/// How a feature is written, and why:
/// - A feature is a type of its own (a `Sendable` struct, the public namespace callers reach
///   as `service.tokens`, `service.accounts`, …). Its methods that touch the session take
///   `host: isolated some SessionHost`, so they run on the owner's executor: calling one from
///   outside is the same single hop onto the actor a method of the actor was, and inside it
///   every requirement is a plain synchronous call (no extra hop on the token path, the same
///   ordering and reentrancy as before, re-checking the session after each `await`). The
///   parameter is generic (`some`), not `any`: through an existential the compiler loses that
///   `#isolation` is the host, and a step machine's `drive` on it no longer type-checks.
/// - A feature's mutable fields live in a final class or struct the owner stores in
///   ``SessionFeatures`` (isolated to the owner, not Sendable); the feature reads them through
///   ``features``. Nothing else of the owner is in reach: the machine, the locks, the
///   scheduler and the event bus stay private to ``SessionService``.
/// - Why not feature actors holding the host: every token request would cross into a second
///   actor and back (two hops where there was one) and a feature's state would be reentrant
///   against the session's on another executor. Why not `nonisolated(unsafe)` or
///   `@unchecked Sendable`: the isolated parameter gives the compiler the proof instead.
/// - Shared steps several features need (adopting a sign-in, reading a profile) are
///   extensions of `SessionHost`, written only with these requirements.
///
/// Add requirements here only for what belongs to the owner; never rename one (features are
/// written against them in parallel).
protocol SessionHost: Actor {
    // MARK: Reading the session

    /// The current session (what the keyring holds as `session`), nil when signed out.
    var session: Session? { get }
    /// Everything the keyring holds.
    var persisted: PersistedState { get }
    /// Starting, signed out, anonymous or authenticated.
    var status: AuthStatus { get }
    /// Whether a new anonymous user is created whenever there is none (`session.anonymous_first`).
    var anonymousFirst: Bool { get }
    /// The current state, as clients see it.
    var state: AuthState { get }
    /// The features' own fields (each feature reads only its own).
    var features: SessionFeatures { get }

    // MARK: The ports and the clock

    nonisolated var provider: any RemoteAuthProvider { get }
    var logger: Logger { get }
    /// The injected clock's current date.
    nonisolated var now: @Sendable () -> Date { get }

    /// Calls the backend and keeps `connectivity` in step with the outcome.
    func call<T: Sendable>(_ body: () async throws(RemoteAuthError) -> T) async throws(RemoteAuthError) -> T
    /// ``call(_:)``, mapping a failure to the caller's error (no token involved).
    func callMapped<T: Sendable>(_ body: () async throws(RemoteAuthError) -> T) async throws(AuthError) -> T
    /// Calls the backend with a valid ID token of the current user: refreshed first when about
    /// to expire, and once more when the backend refuses it; a gone account ends the session.
    func withFreshToken<T: Sendable>(
        _ body: @Sendable (IDToken) async throws(RemoteAuthError) -> T
    ) async throws(AuthError) -> T

    // MARK: Changing the session

    /// Feeds the events to the session's machine under one hold of the change lock and performs
    /// its actions: persist, then notify, then plan the follow-up work.
    func apply(_ events: SessionMachine.Event...) async
    /// Tells every listener `kind` with the current state (a change that is not the machine's,
    /// such as a sign-in flow's prompt).
    func emit(_ kind: SessionEvent.Kind)
    /// Tells the maintenance plan what happened (it wakes the loop).
    func plan(_ event: MaintenancePlan.Event)
    /// Seconds a merge waits for a migrator (`merge.hold`); 0 completes merges at once.
    var mergeHold: TimeInterval { get }

    // MARK: Ordered flow events (the sign-in flows')

    /// ``emit(_:)`` in order with the session's changes (after the change under way).
    func emitInOrder(_ kind: SessionEvent.Kind) async

    // MARK: Order and tasks

    /// Runs `body` as the only session-changing flow, after the ones that arrived before it.
    func exclusively<T: Sendable>(_ body: () async throws(AuthError) -> T) async throws(AuthError) -> T
    /// Starts `work` as a child task of ``SessionService/run()`` (on the owner's executor),
    /// cancelled when the service shuts down; work spawned before `run()` starts waits for it.
    func spawn(_ work: @escaping @Sendable (isolated any SessionHost) async -> Void)
}
