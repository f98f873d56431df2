import Logging
import NIOCore
import SesameLocalAPI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One client connection: split lines → decode → authorise → dispatch → answer, with at most
/// ``ProtocolLimits/maximumRequestsInFlight`` requests in flight (beyond that it stops reading).
///
/// Lines are decoded where the socket's read put them: a complete line is never copied, and a
/// request answered on the event loop splices its id from the read buffer straight into the
/// answer. Bytes are kept only for a line whose end has not come yet (at most
/// ``ProtocolLimits/maximumRequestLineBytes``, + 1 for the `\n`) or for lines that wait while
/// the limit of calls is in flight.
///
/// Lives on its channel's event loop. Every line goes out through ``ConnectionOutput``, so
/// answers and notifications leave in the order they were produced.
final class ConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let dispatcher: LocalAPIDispatcher
    private let caller: LocalAPIDispatcher.Caller
    private let hub: SubscriptionHub
    private let activity: LocalAPIActivity
    private let flush: LoopFlush
    private let logger: Logger
    private let maximumLineBytes: Int
    /// Read and not yet handled: the start of a line, or lines waiting for a call to finish.
    private var unread: ByteBuffer?
    private var inFlight = 0
    private var closing = false
    private var readingPaused = false
    /// The last line decoded to a call, for the same line with another id.
    private var memo: RequestMemo?

    init(
        dispatcher: LocalAPIDispatcher, caller: LocalAPIDispatcher.Caller, hub: SubscriptionHub,
        activity: LocalAPIActivity, flush: LoopFlush, logger: Logger,
        maximumLineBytes: Int = ProtocolLimits.maximumRequestLineBytes
    ) {
        self.flush = flush
        self.dispatcher = dispatcher
        self.caller = caller
        self.hub = hub
        self.activity = activity
        self.logger = logger
        self.maximumLineBytes = maximumLineBytes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        activity.record()
        var bytes = unwrapInboundIn(data)
        if var earlier = unread {
            unread = nil
            earlier.writeBuffer(&bytes)
            bytes = earlier
        }
        unread = bytes
        // The answers of this read burst wait, and go out with one flush after the loop's
        // other reads (LoopFlush).
        caller.output.hold()
        drain(context: context)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        flush.add(caller.output, context: context)
        context.fireChannelReadComplete()
    }

    /// Handles the complete lines read so far, while fewer than the limit of calls are in
    /// flight, then pauses reading when lines wait or the client does not read its answers.
    private func drain(context: ChannelHandlerContext) {
        if var bytes = unread {
            unread = nil
            while !closing, inFlight < ProtocolLimits.maximumRequestsInFlight, bytes.readableBytes > 0,
                let used = handleFirstLine(of: bytes, context: context)
            {
                bytes.moveReaderIndex(forwardBy: used)
            }
            if !closing, bytes.readableBytes > 0 { unread = bytes }
        }
        let linesWait = inFlight >= ProtocolLimits.maximumRequestsInFlight && unread != nil
        let shouldPause = linesWait || !context.channel.isWritable
        if shouldPause != readingPaused {
            readingPaused = shouldPause
            context.channel.setOption(ChannelOptions.autoRead, value: !shouldPause).whenFailure { _ in }
            if !shouldPause { context.read() }
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
        closing = true
        logger.info("Closing a connection that sent a too large line", metadata: ["peer.pid": "\(caller.peer.pid)"])
        caller.output.sendAndClose(LocalAPIMessage.failure(id: .null, error: .requestTooLarge).encoded())
    }

    /// `line` is valid during this call only: what outlives it (a call for the session
    /// service) copies the id.
    private func handle(_ line: UnsafeRawBufferPointer, context: ChannelHandlerContext) {
        if let memo, let idRange = memo.id(in: line) {
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
                    memo = RequestMemo(line: line, id: idRange, typed: typed)
                }
                plan(typed, id: id, context: context)
            }
        }
    }

    private func plan(_ typed: LocalAPIDispatcher.TypedCall, id: UnsafeRawBufferPointer, context: ChannelHandlerContext)
    {
        switch dispatcher.plan(typed, id: id, caller: caller) {
        case .answered:
            return
        case .respond(let response):
            send(response, id: id)
        case .later(let call, let method):
            inFlight += 1
            let ownedID = Array(id)
            let dispatcher = self.dispatcher
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            let eventLoop = context.eventLoop
            Task {
                let answer = await dispatcher.execute(call, method: method)
                eventLoop.execute {
                    let (handler, context) = loopBound.value
                    handler.finished(answer, id: ownedID, context: context)
                }
            }
        }
    }

    private static var null: UnsafeRawBufferPointer {
        let text: StaticString = "null"
        return UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
    }

    private func finished(_ answer: SplicedResponse, id: [UInt8], context: ChannelHandlerContext) {
        inFlight -= 1
        id.withUnsafeBytes { send(answer, id: $0) }
        drain(context: context)
    }

    private func send(_ response: SplicedResponse, id: UnsafeRawBufferPointer) {
        if response.count + id.count > ProtocolLimits.maximumResponseLineBytes {
            caller.output.send(.failure(.internalError), id: id)
        } else {
            caller.output.send(response, id: id)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if !context.channel.isWritable && hub.isSubscriber(caller.output) {
            // More than the limit of notifications is waiting unread: this subscriber is too
            // slow; everyone else carries on.
            logger.warning(
                "Disconnecting a subscriber that does not read its notifications",
                metadata: ["peer.pid": "\(caller.peer.pid)", "peer.uid": "\(caller.peer.uid)"])
            closing = true
            hub.remove(caller.output)
            context.close(promise: nil)
            return
        }
        drain(context: context)
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        closing = true
        unread = nil
        hub.remove(caller.output)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.debug("Connection error", metadata: ["error": "\(error)"])
        closing = true
        context.close(promise: nil)
    }
}
