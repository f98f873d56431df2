import Foundation
import Logging
import SesameCore

/// What the session's owner talks to: the backend, the keyring, the journal and the clock.
/// Immutable and Sendable, so the features read them without a hop.
struct SessionPorts: Sendable {
    /// The authentication backend.
    let provider: any RemoteAuthProvider
    /// Where the session is persisted.
    let store: any SessionStore
    let logger: Logger
    /// The injected clock's current date, on the daemon's steady timeline.
    let now: @Sendable () -> Date
    /// How far the calendar is ahead of ``now`` (``WallClock/calendarOffset``).
    let calendarOffset: @Sendable () -> TimeInterval
}
