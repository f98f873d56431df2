import NIOCore
import SesameLocalAPI

/// Sends `too-many-connections` to a connection over the limit and closes it.
final class RefuseConnectionHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    func channelActive(context: ChannelHandlerContext) {
        var line = LocalAPIMessage.failure(id: .null, error: .tooManyConnections).encoded()
        line.append(UInt8(ascii: "\n"))
        var buffer = context.channel.allocator.buffer(capacity: line.count)
        buffer.writeBytes(line)
        let channel = context.channel
        context.writeAndFlush(NIOAny(buffer)).whenComplete { _ in channel.close(promise: nil) }
    }
}
