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
        /// Notification bytes in `buffer`.
        var notificationBytes = 0
        /// Notification bytes handed to the channel and not yet written to the socket.
        var unwrittenNotificationBytes = 0
        /// Unread notifications passed ``ProtocolLimits/maximumUnreadNotificationBytes``.
        var tooSlow = false
        var tooSlowReported = false
    }

    /// Told to the pipeline (once) when unread notifications passed the limit.
    struct TooSlow {}

    init(channel: any Channel) {
        self.channel = channel
    }

    /// Bytes queued in the outbox, not yet handed to the channel.
    var queuedBytes: Int { outbox.withLockedValue { $0.buffer?.readableBytes ?? 0 } }

    /// Queues one line (a `\n` is added) behind everything sent before.
    func send(_ line: [UInt8]) {
        append(length: line.count, notification: false) { $0.writeBytes(line) }
    }

    /// Queues one notification line; it counts against the subscriber's limit until written.
    func send(notification line: [UInt8]) {
        append(length: line.count, notification: true) { $0.writeBytes(line) }
    }

    /// Queues a response with the request's id (its bytes as the request gave them).
    func send(_ response: SplicedResponse, id: [UInt8]) {
        id.withUnsafeBytes { _ = send(response, id: $0) }
    }

    /// Queues a response with the request's id, copied from where the request was read;
    /// returns the bytes now queued in the outbox.
    @discardableResult
    func send(_ response: SplicedResponse, id: UnsafeRawBufferPointer) -> Int {
        append(length: response.count + id.count, notification: false) { buffer in
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
            var notifications = 0
            let buffer = self.take(notifications: &notifications) ?? channel.allocator.buffer(capacity: 0)
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
        var notifications = 0
        var tooSlow = false
        let taken = outbox.withLockedValue { outbox -> ByteBuffer? in
            outbox.holding = false
            outbox.flushQueued = false
            return Self.take(&outbox, notifications: &notifications, tooSlow: &tooSlow)
        }
        guard var buffer = taken else { return }
        context.writeAndFlush(NIOAny(buffer), promise: written(notifications))
        if tooSlow { reportTooSlow() }
        // A write the socket took at once has let go of the buffer: cleared, it keeps its
        // memory for the next burst (one allocation fewer per burst). One still queued is
        // not touched (clearing it would copy), nor a large one (an idle connection keeps
        // at most this much).
        guard buffer.capacity <= Self.spareCapacity, context.channel.isWritable else { return }
        buffer.clear()
        outbox.withLockedValue { $0.spare = buffer }
    }

    private static let spareCapacity = 4096

    /// Queues one notification like ``send(notification:)``, but leaves the flush to the
    /// caller: true when one is needed, and then the caller must call ``flushQueued()`` on the
    /// event loop. The hub notifies many connections this way with one task per event loop,
    /// not one per connection.
    func enqueue(_ line: [UInt8]) -> Bool {
        appendLine(length: line.count, notification: true) { $0.writeBytes(line) }.needsFlush
    }

    /// On the event loop: writes and flushes what is queued (after ``enqueue(_:)`` said so).
    func flushQueued() { flush() }

    @discardableResult
    private func append(length: Int, notification: Bool, _ write: (inout ByteBuffer) -> Void) -> Int {
        let (needsFlush, queued) = appendLine(length: length, notification: notification, write)
        if needsFlush {
            channel.eventLoop.execute { self.flush() }
        }
        return queued
    }

    /// Appends a line; `needsFlush` when nobody will flush it yet (no read burst holds the
    /// outbox and no flush task is queued), and then one is counted as queued.
    private func appendLine(
        length: Int, notification: Bool, _ write: (inout ByteBuffer) -> Void
    ) -> (needsFlush: Bool, queued: Int) {
        let allocator = channel.allocator
        return outbox.withLockedValue { outbox -> (Bool, Int) in
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
            if notification {
                outbox.notificationBytes += length + 1
                if outbox.notificationBytes + outbox.unwrittenNotificationBytes
                    > ProtocolLimits.maximumUnreadNotificationBytes
                {
                    outbox.tooSlow = true
                }
            }
            let queued = outbox.buffer!.readableBytes
            guard !outbox.holding, !outbox.flushQueued else { return (false, queued) }
            outbox.flushQueued = true
            return (true, queued)
        }
    }

    /// Takes the outbox's buffer, moving its notification bytes to the unwritten ones;
    /// `tooSlow` when the subscriber passed its limit and nobody was told yet.
    private static func take(_ outbox: inout Outbox, notifications: inout Int, tooSlow: inout Bool) -> ByteBuffer? {
        defer { outbox.buffer = nil }
        guard let buffer = outbox.buffer else { return nil }
        notifications = outbox.notificationBytes
        outbox.notificationBytes = 0
        outbox.unwrittenNotificationBytes += notifications
        if outbox.tooSlow, !outbox.tooSlowReported {
            outbox.tooSlowReported = true
            tooSlow = true
        }
        return buffer
    }

    private func take(notifications: inout Int) -> ByteBuffer? {
        var tooSlow = false
        return outbox.withLockedValue { outbox in
            outbox.flushQueued = false
            return Self.take(&outbox, notifications: &notifications, tooSlow: &tooSlow)
        }
    }

    /// A promise that counts `notifications` bytes as written once the write is done; nil
    /// (no allocation) for a write of answers only.
    private func written(_ notifications: Int) -> EventLoopPromise<Void>? {
        guard notifications > 0 else { return nil }
        let promise = channel.eventLoop.makePromise(of: Void.self)
        promise.futureResult.whenComplete { _ in
            self.outbox.withLockedValue { $0.unwrittenNotificationBytes -= notifications }
        }
        return promise
    }

    /// On the event loop: tells the pipeline that this subscriber does not read its
    /// notifications.
    private func reportTooSlow() {
        channel.pipeline.fireUserInboundEventTriggered(TooSlow())
    }

    private func flush() {
        var notifications = 0
        var tooSlow = false
        let taken = outbox.withLockedValue { outbox in
            outbox.flushQueued = false
            return Self.take(&outbox, notifications: &notifications, tooSlow: &tooSlow)
        }
        if let taken { channel.writeAndFlush(taken, promise: written(notifications)) }
        if tooSlow { reportTooSlow() }
    }
}
