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
/// Lives on its event loop: every call comes from a connection handler on that loop. Holding
/// the outbox until the flush keeps the order of lines: a notification sent meanwhile goes out
/// behind the answers before it.
final class LoopFlush {
    private let eventLoop: any EventLoop
    private var waiting: [(handler: ConnectionHandler, context: ChannelHandlerContext)] = []

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// Writes `handler`'s held lines (``ConnectionHandler/released(context:)``) after the loop's
    /// current reads.
    func add(_ handler: ConnectionHandler, context: ChannelHandlerContext) {
        if waiting.isEmpty {
            let loopBound = NIOLoopBound(self, eventLoop: eventLoop)
            eventLoop.execute { loopBound.value.flushAll() }
        }
        waiting.append((handler, context))
    }

    private func flushAll() {
        let all = waiting
        waiting.removeAll(keepingCapacity: true)
        for (handler, context) in all { handler.released(context: context) }
    }
}
