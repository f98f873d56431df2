import Logging
import NIOCore
import SesameLocalAPI

/// One client connection: decode → authorise → dispatch → answer, with at most
/// ``ProtocolLimits/maximumRequestsInFlight`` requests in flight (beyond that it stops reading).
///
/// Lives on its channel's event loop. Every line goes out through ``ConnectionOutput``, so
/// answers and notifications leave in the order they were produced.
final class ConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = RequestLine

    private let dispatcher: LocalAPIDispatcher
    private let caller: LocalAPIDispatcher.Caller
    private let hub: SubscriptionHub
    private let logger: Logger
    private var queued = CircularBuffer<[UInt8]>()
    private var inFlight = 0
    private var closing = false
    private var readingPaused = false

    init(dispatcher: LocalAPIDispatcher, caller: LocalAPIDispatcher.Caller, hub: SubscriptionHub, logger: Logger) {
        self.dispatcher = dispatcher
        self.caller = caller
        self.hub = hub
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        // Answers of this read burst go out with one flush, in channelReadComplete.
        caller.output.hold()
        switch unwrapInboundIn(data) {
        case .tooLarge:
            closing = true
            logger.info("Closing a connection that sent a too large line", metadata: ["peer.pid": "\(caller.peer.pid)"])
            caller.output.sendAndClose(LocalAPIMessage.failure(id: .null, error: .requestTooLarge).encoded())
        case .line(let bytes):
            queued.append(bytes)
            drain(context: context)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        caller.output.release()
        context.fireChannelReadComplete()
    }

    private func drain(context: ChannelHandlerContext) {
        while !closing, inFlight < ProtocolLimits.maximumRequestsInFlight, let line = queued.popFirst() {
            handle(line, context: context)
        }
        let shouldPause = !queued.isEmpty || !context.channel.isWritable
        if shouldPause != readingPaused {
            readingPaused = shouldPause
            context.channel.setOption(ChannelOptions.autoRead, value: !shouldPause).whenFailure { _ in }
            if !shouldPause { context.read() }
        }
    }

    private func handle(_ line: [UInt8], context: ChannelHandlerContext) {
        let (decoded, id) = LocalAPIRequest.decodeKeepingID(line: line)
        switch decoded {
        case .blank, .notification:
            return
        case .failure(_, let error):
            send(.failure(error), id: id)
        case .request(let request):
            switch dispatcher.plan(request, id: id, caller: caller) {
            case .answered:
                return
            case .respond(let response):
                send(response, id: id)
            case .later(let call, let method):
                inFlight += 1
                let dispatcher = self.dispatcher
                let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
                let eventLoop = context.eventLoop
                Task {
                    let answer = await dispatcher.execute(call, method: method)
                    eventLoop.execute {
                        let (handler, context) = loopBound.value
                        handler.finished(answer, id: id, context: context)
                    }
                }
            }
        }
    }

    private func finished(_ answer: SplicedResponse, id: [UInt8], context: ChannelHandlerContext) {
        inFlight -= 1
        send(answer, id: id)
        drain(context: context)
    }

    private func send(_ response: SplicedResponse, id: [UInt8]) {
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
        hub.remove(caller.output)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.debug("Connection error", metadata: ["error": "\(error)"])
        closing = true
        context.close(promise: nil)
    }
}
