import Foundation
import Logging
import SesameCore

/// The owner's side of ``SessionHost``: the session read-only, the plan, child tasks.
extension SessionService {
    /// The injected clock's current date: the one "now" for token expiry, here and in the
    /// local API server's cached answers.
    public nonisolated var now: @Sendable () -> Date { ports.now }
    /// How far the calendar is ahead of ``now`` (``WallClock/calendarOffset``): dates shown
    /// outside are `now`'s plus this.
    public nonisolated var calendarOffset: @Sendable () -> TimeInterval { ports.calendarOffset }
    nonisolated var provider: any RemoteAuthProvider { ports.provider }
    nonisolated var logger: Logger { ports.logger }
    var session: Session? { machine.session }
    var persisted: PersistedState { machine.persisted }
    var status: AuthStatus { machine.status }
    var anonymousFirst: Bool { machine.anonymousFirst }
    var mergeHold: TimeInterval { maintenance.mergeHold }

    func plan(_ event: MaintenancePlan.Event) {
        maintenance.handle(event)
    }

    func emitInOrder(_ kind: SessionEvent.Kind) async {
        await acquire(\.changes)
        defer { locks.changes.release() }
        emit(kind)
    }

    func spawn(_ work: @escaping @Sendable (isolated any SessionHost) async -> Void) {
        maintenance.spawn { await work(self) }
    }
}
