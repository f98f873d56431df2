import NIOCore

/// Turns decoded lines and the end of the connection into ``ConnectionEvent``s.
final class InboundLineHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let continuation: AsyncStream<ConnectionEvent>.Continuation
    private var finished = false

    init(continuation: AsyncStream<ConnectionEvent>.Continuation) {
        self.continuation = continuation
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !finished else { return }
        var buffer = unwrapInboundIn(data)
        continuation.yield(.line(buffer.readBytes(length: buffer.readableBytes) ?? []))
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(detail: nil)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is ByteToMessageDecoderError.PayloadTooLargeError {
            finish(detail: "the daemon sent a line longer than \(LineConnection.maximumLineBytes) bytes")
        } else if error is IOError || error is ChannelError {
            // A transport failure (e.g. ECONNRESET when the daemon dies): the connection
            // closed, which is not a protocol error.
            finish(detail: nil)
        } else {
            finish(detail: "\(error)")
        }
        context.close(promise: nil)
    }

    private func finish(detail: String?) {
        guard !finished else { return }
        finished = true
        continuation.yield(.closed(detail: detail))
        continuation.finish()
    }
}

@available(*, unavailable)
extension InboundLineHandler: Sendable {}
