import Logging
import NIOCore
import SesameLocalAPI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One client connection: split lines → decode → authorise → dispatch → answer, with at most
/// ``ProtocolLimits/maximumRequestsInFlight`` requests in flight, and while the socket does
/// not take the answers written to it (more than ``maximumQueuedAnswerBytes`` wait in the
/// channel: it is not writable) it handles no more lines and stops reading. Every request
/// counts, however it is answered: one answered on the event loop adds its answer's bytes, and
/// every ``maximumQueuedAnswerBytes`` of them are handed to the socket at once, so a client
/// that does not read is paused with at most about twice that waiting for it.
///
/// Lines are decoded where the socket's read put them: a complete line is never copied, and a
/// request answered on the event loop splices its id from the read buffer straight into the
/// answer. Bytes are kept only for a line whose end has not come yet (at most
/// ``ProtocolLimits/maximumRequestLineBytes``, + 1 for the `\n`) or for lines that wait while
/// a bound is reached (what the socket had already read, as when the peer closes: nothing is
/// handled past a pause).
///
/// Lives on its channel's event loop. Every line goes out through ``ConnectionOutput``, so
/// answers and notifications leave in the order they were produced. Lines are only handled
/// in a burst: the outbox is held and written once, by the loop's ``LoopFlush``, which then
/// calls ``released(context:)``.
final class ConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    /// Answer bytes a burst may queue before the connection handles no more lines until they
    /// are written; with the channel's high water mark this bounds a connection's answers.
    static let maximumQueuedAnswerBytes = 16 * 1024

    private let dispatcher: LocalAPIDispatcher
    private let caller: LocalAPIDispatcher.Caller
    private let hub: SubscriptionHub
    private let activity: LocalAPIActivity
    private let flush: LoopFlush
    private let peerLog: PeerLog
    private let maximumLineBytes: Int
    /// Carries the requests the service answers into it, this connection's changes in order.
    private let bridge: ServiceBridge
    /// Read and not yet handled: the start of a line, or lines waiting for a bound.
    private var unread: ByteBuffer?
    /// In flight, paused, bursting, held answer bytes, idle ticks, closing.
    private var machine = ConnectionMachine(
        maximumInFlight: ProtocolLimits.maximumRequestsInFlight,
        maximumQueuedAnswerBytes: ConnectionHandler.maximumQueuedAnswerBytes)
    /// The last line decoded to a call, for the same line with another id.
    private var memo: RequestMemo?

    init(
        dispatcher: LocalAPIDispatcher, caller: LocalAPIDispatcher.Caller, hub: SubscriptionHub,
        activity: LocalAPIActivity, flush: LoopFlush, peerLog: PeerLog,
        maximumLineBytes: Int = ProtocolLimits.maximumRequestLineBytes
    ) {
        self.flush = flush
        self.dispatcher = dispatcher
        self.caller = caller
        self.hub = hub
        self.activity = activity
        self.peerLog = peerLog
        self.maximumLineBytes = maximumLineBytes
        self.bridge = ServiceBridge(service: dispatcher.service)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let afterRead = machine.read()
        guard afterRead != .drop else { return }
        activity.record()
        var bytes = unwrapInboundIn(data)
        if var earlier = unread {
            unread = nil
            earlier.writeBuffer(&bytes)
            bytes = earlier
        }
        unread = bytes
        // Lines are not handled past a pause: NIO reads on (up to its reads per wake-up, and
        // to the end when the peer closes), but the bytes only wait.
        guard afterRead == .handle else { return }
        drain(context: context, inRead: true)
    }

    /// Writes a lone client's burst as its read ends (``LoopFlush/isAlone(_:)``).
    func channelReadComplete(context: ChannelHandlerContext) {
        if machine.readEnded() { released(context: context) }
        context.fireChannelReadComplete()
    }

    /// Holds the outbox, once per burst, until the loop's flush: the answers of this burst go
    /// out with one flush after the loop's other reads (LoopFlush); or, for a burst that a lone
    /// client's read began, until that read ends (no task is queued for it).
    private func beginBurst(context: ChannelHandlerContext, inRead: Bool) {
        guard !machine.bursting else { return }
        let atReadEnd = inRead && flush.isAlone(self)
        _ = machine.beginBurst(atReadEnd: atReadEnd)
        caller.output.hold()
        if !atReadEnd { flush.add(self, context: context) }
    }

    /// Called by the loop's ``LoopFlush`` or at the end of a read: writes the burst's answers.
    func released(context: ChannelHandlerContext) {
        machine.released()
        caller.output.release(context: context)
    }

    /// Handles the complete lines read so far, while the bounds allow, then pauses reading
    /// when lines wait or the client does not read its answers. Every
    /// ``maximumQueuedAnswerBytes`` of answers are handed to the socket at once; the lines
    /// after them are handled only if the channel is still writable (the socket took them),
    /// else they wait for ``channelWritabilityChanged(context:)``: the loop goes on only as
    /// the client reads, like any other I/O, and never holds more than that for it.
    private func drain(context: ChannelHandlerContext, inRead: Bool = false) {
        beginBurst(context: context, inRead: inRead)
        var writable = context.channel.isWritable
        if var bytes = unread {
            unread = nil
            lines: while bytes.readableBytes > 0 {
                switch machine.nextLine(writable: writable) {
                case .stop:
                    break lines
                case .flushFirst:
                    caller.output.release(context: context)
                    caller.output.hold()
                    writable = context.channel.isWritable
                case .handle:
                    guard let used = handleFirstLine(of: bytes, context: context) else { break lines }
                    bytes.moveReaderIndex(forwardBy: used)
                }
            }
            if !machine.closing, bytes.readableBytes > 0 { unread = bytes }
        }
        switch machine.settle(linesWait: unread != nil, writable: writable) {
        case .unchanged:
            break
        case .pause:
            context.channel.setOption(ChannelOptions.autoRead, value: false).whenFailure { _ in }
        case .resume:
            context.channel.setOption(ChannelOptions.autoRead, value: true).whenFailure { _ in }
            context.read()
        }
    }

    /// Handles the first line of `bytes`; returns how many bytes it took with its `\n`, or nil
    /// when the line is not complete yet. A line over the limit answers `-32600` and closes.
    private func handleFirstLine(of bytes: ByteBuffer, context: ChannelHandlerContext) -> Int? {
        bytes.withUnsafeReadableBytes { raw -> Int? in
            guard let base = raw.baseAddress, let found = memchr(base, Int32(UInt8(ascii: "\n")), raw.count) else {
                if raw.count > maximumLineBytes { refuseTooLarge() }
                return nil
            }
            let newline = UnsafeRawPointer(found) - base
            guard newline <= maximumLineBytes else {
                refuseTooLarge()
                return nil
            }
            handle(UnsafeRawBufferPointer(rebasing: raw[..<newline]), context: context)
            return newline + 1
        }
    }

    private func refuseTooLarge() {
        machine.close()
        peerLog.log(
            .lineTooLarge, .info, "Closing a connection that sent a too large line",
            metadata: ["peer.pid": "\(caller.peer.pid)", "peer.uid": "\(caller.peer.uid)"])
        caller.output.sendAndClose(LocalAPIMessage.failure(id: .null, error: .requestTooLarge).encoded())
    }

    /// `line` is valid during this call only: what outlives it (a call for the session
    /// service) copies the id.
    private func handle(_ line: UnsafeRawBufferPointer, context: ChannelHandlerContext) {
        if let memo, memo.role == caller.role, let idRange = memo.id(in: line) {
            plan(memo.typed, id: UnsafeRawBufferPointer(rebasing: line[idRange]), context: context)
            return
        }
        let (decoded, idRange) = LocalAPIRequest.decode(line: line)
        let id = idRange.map { UnsafeRawBufferPointer(rebasing: line[$0]) } ?? Self.null
        switch decoded {
        case .blank, .notification:
            return
        case .failure(_, let error):
            send(.failure(error), id: id)
        case .request(let request):
            switch dispatcher.decode(request, caller: caller) {
            case .failure(let error):
                send(.failure(error), id: id)
            case .success(let typed):
                if let idRange, typed.method.venue != .service, RequestMemo.isSimpleID(id) {
                    memo = RequestMemo(line: line, id: idRange, typed: typed, role: caller.role)
                }
                plan(typed, id: id, context: context)
            }
        }
    }

    private func plan(_ typed: LocalAPIDispatcher.TypedCall, id: UnsafeRawBufferPointer, context: ChannelHandlerContext)
    {
        switch dispatcher.plan(typed, id: id, caller: caller) {
        case .answered:
            machine.answered(holding: caller.output.queuedBytes)
        case .respond(let response):
            send(response, id: id)
        case .later(let call, let method):
            machine.started()
            let ownedID = Array(id)
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            bridge.submit(call, method: method, on: context.eventLoop) { answer in
                let (handler, context) = loopBound.value
                handler.finished(answer, id: ownedID, context: context)
            }
        case .waiting(let answer):
            machine.started()
            let ownedID = Array(id)
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            answer.hop(to: context.eventLoop).whenSuccess { answer in
                let (handler, context) = loopBound.value
                handler.finished(answer, id: ownedID, context: context)
            }
        }
    }

    private static var null: UnsafeRawBufferPointer {
        let text: StaticString = "null"
        return UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
    }

    private func finished(_ answer: SplicedResponse, id: [UInt8], context: ChannelHandlerContext) {
        guard machine.finished() else { return }
        beginBurst(context: context, inRead: false)
        id.withUnsafeBytes { send(answer, id: $0) }
        drain(context: context)
    }

    private func send(_ response: SplicedResponse, id: UnsafeRawBufferPointer) {
        if response.count + id.count > ProtocolLimits.maximumResponseLineBytes {
            machine.answered(holding: caller.output.send(.failure(.internalError), id: id))
        } else {
            machine.answered(holding: caller.output.send(response, id: id))
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        // Only answers are held back this way; notifications count against the subscriber's
        // own limit (ConnectionOutput.TooSlow).
        if !machine.closing { drain(context: context) }
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case is ConnectionOutput.TooSlow:
            // More than the limit of notifications is waiting unread: this subscriber is too
            // slow; everyone else carries on.
            peerLog.log(
                .slowSubscriber, .warning, "Disconnecting a subscriber that does not read its notifications",
                metadata: ["peer.pid": "\(caller.peer.pid)", "peer.uid": "\(caller.peer.uid)"])
            close(context: context)
        case is IdleTick:
            if machine.idleTick(ticksToClose: IdleTick.ticksToClose, subscribed: hub.isSubscriber(caller.output)) {
                close(context: context)
            }
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    private func close(context: ChannelHandlerContext) {
        machine.close()
        unread = nil
        hub.remove(caller.output)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        machine.close()
        unread = nil
        hub.remove(caller.output)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        peerLog.log(.connectionError, .debug, "Connection error", metadata: ["error": "\(error)"])
        machine.close()
        context.close(promise: nil)
    }
}

/// Sent to every connection every quarter of `socket.idle_timeout`: a connection that read
/// nothing for ``ticksToClose`` ticks, with nothing in flight and no subscription, is closed.
struct IdleTick {
    static let ticksToClose = 4
}
