import NIOCore
import SesameCore

/// The client's connection to the daemon: the current one and its generation, the one shared
/// attempt to open a connection, and the reconnection loop with its backoff.
///
/// Invariants: `connection` is nil exactly when no connection is usable; `generation` grows
/// with every connection adopted or dropped, so events of an older connection are ignored.
struct Link {
    /// The pauses between reconnection attempts: 50 ms doubling to 2 s, with jitter.
    static let reconnectBackoff = Backoff(initial: .milliseconds(50), maximum: .seconds(2))

    private(set) var connection: LineConnection?
    private(set) var generation: UInt64 = 0
    /// Concurrent callers that need a connection share one attempt to open it.
    let attempts = SharedAttempt<LineConnection, SesameClientError>()
    /// The channel adopted last: the callers that shared its attempt adopt it once.
    private var adopted: (any Channel)?
    /// Reconnects with ``backoff`` while a stream needs the daemon; nil when not reconnecting.
    var reconnecting: Task<Void, Never>?
    var backoff = Link.reconnectBackoff

    /// Makes `opened` the connection and returns its generation; nil when it was adopted
    /// already (by another caller of the same attempt).
    mutating func adopt(_ opened: LineConnection) -> UInt64? {
        guard adopted !== opened.channel else { return nil }
        adopted = opened.channel
        generation += 1
        connection = opened
        return generation
    }

    /// Forgets the connection and returns it (to close); nil when there was none.
    mutating func drop() -> LineConnection? {
        guard let old = connection else { return nil }
        connection = nil
        generation += 1
        return old
    }

    /// Stops the reconnection loop.
    mutating func stopReconnecting() {
        reconnecting?.cancel()
        reconnecting = nil
    }
}
