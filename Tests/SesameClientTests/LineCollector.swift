import NIOCore

/// Forwards each decoded line to the fake's serving task.
final class LineCollector: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    let continuation: AsyncStream<[UInt8]>.Continuation

    init(continuation: AsyncStream<[UInt8]>.Continuation) {
        self.continuation = continuation
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        continuation.yield(buffer.readBytes(length: buffer.readableBytes) ?? [])
    }

    func channelInactive(context: ChannelHandlerContext) {
        continuation.finish()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        continuation.finish()
        context.close(promise: nil)
    }
}

@available(*, unavailable)
extension LineCollector: Sendable {}
