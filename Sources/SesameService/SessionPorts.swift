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
    /// The injected clock's current date.
    let now: @Sendable () -> Date
}
