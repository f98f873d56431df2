import NIOCore

/// The answers of one event loop's read bursts, written together once the loop has read every
/// connection that was readable at this wake-up (a task queued on the loop runs after its I/O
/// events), as Redis writes its replies before it sleeps. Clients then get their answers in one
/// stretch instead of one between each read: a client process waiting on several connections
/// wakes once for many answers instead of once per answer, and waking a sleeping reader is
/// the largest part of the kernel's cost of a small answer under load. Measured: 66 % → 73 % of
/// the echo floor's throughput at 100 clients (docs/BENCHMARKS.md). A lone request waits only
/// for the other reads of the same wake-up.
///
/// A lone client pays for no task: when a loop's bursts keep coming from the same connection
/// with none waiting for the flush (one client asking again and again), its burst is written
/// as its own read ends (``isAlone(_:)``); bursts of several connections interleaving on the
/// loop are written together as above. Measured: the task cost a lone client about 1 µs of
/// the daemon's CPU per request (docs/BENCHMARKS.md).
///
/// Lives on its event loop: every call comes from a connection handler on that loop. Holding
/// the outbox until the flush keeps the order of lines: a notification sent meanwhile goes out
/// behind the answers before it.
final class LoopFlush {
    private let eventLoop: any EventLoop
    private var waiting: [(handler: ConnectionHandler, context: ChannelHandlerContext)] = []
    /// The previous flush's list, emptied: swapped with `waiting`, so a flush allocates nothing.
    private var flushing: [(handler: ConnectionHandler, context: ChannelHandlerContext)] = []

    /// The connection of the last burst on this loop.
    private var lastBurst: ObjectIdentifier?

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// Whether the burst `handler`'s read begins may be written when that read ends: the
    /// loop's previous burst was this connection's too, and none waits for the flush. Counts
    /// as this loop's latest burst.
    func isAlone(_ handler: ConnectionHandler) -> Bool {
        let id = ObjectIdentifier(handler)
        defer { lastBurst = id }
        return lastBurst == id && waiting.isEmpty
    }

    /// Writes `handler`'s held lines (``ConnectionHandler/released(context:)``) after the loop's
    /// current reads.
    func add(_ handler: ConnectionHandler, context: ChannelHandlerContext) {
        lastBurst = ObjectIdentifier(handler)
        if waiting.isEmpty {
            let loopBound = NIOLoopBound(self, eventLoop: eventLoop)
            eventLoop.execute { loopBound.value.flushAll() }
        }
        waiting.append((handler, context))
    }

    private func flushAll() {
        swap(&waiting, &flushing)
        for (handler, context) in flushing { handler.released(context: context) }
        flushing.removeAll(keepingCapacity: true)
    }
}
