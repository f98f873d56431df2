/// A first-in, first-out lock for use inside one actor: the session-changing flows run one at
/// a time, in arrival order, while everything else is answered meanwhile.
///
/// Not Sendable: it lives in the actor that owns it.
struct FIFOLock {
    private var held = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Whether someone holds the lock now.
    var isHeld: Bool { held }

    /// Takes the lock at once when it is free; otherwise returns false and the caller parks a
    /// continuation with ``enqueue(_:)``, resumed by a later ``release()``.
    mutating func tryAcquire() -> Bool {
        if held { return false }
        held = true
        return true
    }

    mutating func enqueue(_ continuation: CheckedContinuation<Void, Never>) {
        waiters.append(continuation)
    }

    /// Hands the lock to the next waiter, or frees it.
    mutating func release() {
        precondition(held, "FIFOLock: released while free")
        if waiters.isEmpty {
            held = false
        } else {
            waiters.removeFirst().resume()
        }
    }
}

@available(*, unavailable)
extension FIFOLock: Sendable {}
