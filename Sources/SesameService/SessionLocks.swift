/// The order in which the session changes: one flow at a time, one machine event at a time.
///
/// Owned by ``SessionService`` and used only inside it.
struct SessionLocks {
    /// Session-changing flows, one at a time in arrival order (``SessionService/exclusively(_:)``).
    var flows = FIFOLock()
    /// Machine events, each applied with its keyring write and notifications before the next
    /// (``SessionService/apply(_:)``).
    var changes = FIFOLock()
}

@available(*, unavailable)
extension SessionLocks: Sendable {}
