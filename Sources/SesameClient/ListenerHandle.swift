import Synchronization

/// Identifies a listener added with
/// ``SesameClient/addStateDidChangeListener(_:)``; pass it to
/// ``SesameClient/removeStateDidChangeListener(_:)``.
public struct ListenerHandle: Sendable, Hashable {
    let id: UInt64
    /// Closed when the listener is removed, so it is not called again from that moment on
    /// (a call already running finishes).
    let gate: ListenerGate

    init(id: UInt64) {
        self.id = id
        self.gate = ListenerGate()
    }

    public static func == (lhs: ListenerHandle, rhs: ListenerHandle) -> Bool { lhs.id == rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// Whether a listener may still be called.
final class ListenerGate: Sendable {
    private let open = Mutex(true)
    var isOpen: Bool { open.withLock { $0 } }
    func close() { open.withLock { $0 = false } }
}
