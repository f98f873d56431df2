import NIOConcurrencyHelpers
import NIOCore
import SesameLocalAPI

/// The sending side of one connection, safe to use from any thread.
///
/// Every line goes into one outbox under a lock, so lines leave in the order they were sent,
/// whichever thread sent them. The outbox is written with one flush per batch: while the
/// connection handler reads a burst of requests it holds the outbox, which is flushed once
/// after the loop's reads of this wake-up (``LoopFlush``); a line sent at any other time (an answer from the
/// session service, a notification) queues one flush task on the event loop, which takes
/// whatever else was sent before it runs.
final class ConnectionOutput: Sendable {
    let channel: any Channel
    var id: ObjectIdentifier { ObjectIdentifier(self) }
    private let outbox = NIOLockedValueBox(Outbox())

    private struct Outbox {
        var buffer: ByteBuffer?
        /// The last burst's buffer, cleared, when its memory could be kept (see `release`).
        var spare: ByteBuffer?
        /// A flush task is queued on the event loop.
        var flushQueued = false
        /// The connection handler is reading a burst and flushes at its end.
        var holding = false
    }

    init(channel: any Channel) {
        self.channel = channel
    }

    /// Queues one line (a `\n` is added) behind everything sent before.
    func send(_ line: [UInt8]) {
        append(length: line.count) { $0.writeBytes(line) }
    }

    /// Queues a response with the request's id (its bytes as the request gave them).
    func send(_ response: SplicedResponse, id: [UInt8]) {
        id.withUnsafeBytes { send(response, id: $0) }
    }

    /// Queues a response with the request's id, copied from where the request was read.
    func send(_ response: SplicedResponse, id: UnsafeRawBufferPointer) {
        append(length: response.count + id.count) { buffer in
            buffer.writeBytes(response.before)
            buffer.writeBytes(id)
            buffer.writeBytes(response.after)
        }
    }

    /// Queues a last line, then closes the connection once everything before it is written.
    func sendAndClose(_ line: [UInt8]) {
        send(line)
        let channel = self.channel
        channel.eventLoop.execute {
            let buffer = self.take() ?? channel.allocator.buffer(capacity: 0)
            channel.writeAndFlush(buffer).whenComplete { _ in channel.close(promise: nil) }
        }
    }

    /// On the event loop, at the start of a read burst: lines wait for ``release(context:)``.
    func hold() {
        outbox.withLockedValue { $0.holding = true }
    }

    /// On the event loop, after the read burst (``LoopFlush``): writes and flushes what is waiting,
    /// from the connection handler's `context` (a concrete `ByteBuffer` down the pipeline, not
    /// a value of any type through the channel).
    func release(context: ChannelHandlerContext) {
        let taken = outbox.withLockedValue { outbox -> ByteBuffer? in
            outbox.holding = false
            outbox.flushQueued = false
            defer { outbox.buffer = nil }
            return outbox.buffer
        }
        guard var buffer = taken else { return }
        context.writeAndFlush(NIOAny(buffer), promise: nil)
        // A write the socket took at once has let go of the buffer: cleared, it keeps its
        // memory for the next burst (one allocation fewer per burst). One still queued is
        // not touched (clearing it would copy), nor a large one (an idle connection keeps
        // at most this much).
        guard buffer.capacity <= Self.spareCapacity, context.channel.isWritable else { return }
        buffer.clear()
        outbox.withLockedValue { $0.spare = buffer }
    }

    private static let spareCapacity = 4096

    /// Queues one line like `send(_:)`, but leaves the flush to the caller: true when one is
    /// needed, and then the caller must call ``flushQueued()`` on the event loop. The hub
    /// notifies many connections this way with one task per event loop, not one per connection.
    func enqueue(_ line: [UInt8]) -> Bool {
        appendLine(length: line.count) { $0.writeBytes(line) }
    }

    /// On the event loop: writes and flushes what is queued (after ``enqueue(_:)`` said so).
    func flushQueued() { flush() }

    private func append(length: Int, _ write: (inout ByteBuffer) -> Void) {
        if appendLine(length: length, write) {
            channel.eventLoop.execute { self.flush() }
        }
    }

    /// Appends a line; true when nobody will flush it yet (no read burst holds the outbox and
    /// no flush task is queued), and then one is counted as queued.
    private func appendLine(length: Int, _ write: (inout ByteBuffer) -> Void) -> Bool {
        let allocator = channel.allocator
        return outbox.withLockedValue { outbox -> Bool in
            if outbox.buffer == nil {
                if var spare = outbox.spare, spare.writableBytes > length {
                    outbox.spare = nil
                    spare.clear()
                    outbox.buffer = spare
                } else {
                    outbox.buffer = allocator.buffer(capacity: max(length + 1, 256))
                }
            }
            write(&outbox.buffer!)
            outbox.buffer!.writeInteger(UInt8(ascii: "\n"))
            guard !outbox.holding, !outbox.flushQueued else { return false }
            outbox.flushQueued = true
            return true
        }
    }

    private func take() -> ByteBuffer? {
        outbox.withLockedValue { outbox in
            outbox.flushQueued = false
            defer { outbox.buffer = nil }
            return outbox.buffer
        }
    }

    private func flush() {
        if let buffer = take() {
            channel.writeAndFlush(buffer, promise: nil)
        }
    }
}
