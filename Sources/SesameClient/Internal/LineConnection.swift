import NIOCore
import NIOExtras
import NIOPosix
import SesameLocalAPI

/// One Unix-socket connection to the daemon, framed by lines: a NIO pipeline of
/// `ByteToMessageHandler(LineBasedFrameDecoder())` (lines up to 1 MiB and a bit) and
/// ``InboundLineHandler``. Writes are ordered and may come from any thread.
struct LineConnection: Sendable {
    /// The longest line accepted from the daemon: its 1 MiB plus room for the line end.
    static let maximumLineBytes = ProtocolLimits.maximumResponseLineBytes + 4096

    let channel: any Channel
    let events: AsyncStream<ConnectionEvent>

    /// Connects to `path`.
    /// - Throws: the connect error (no such file, refused, permission denied).
    static func connect(path: String, group: any EventLoopGroup) async throws -> LineConnection {
        let (events, continuation) = AsyncStream.makeStream(of: ConnectionEvent.self)
        let channel = try await ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(LineBasedFrameDecoder(), maximumBufferSize: maximumLineBytes))
                    try channel.pipeline.syncOperations.addHandler(InboundLineHandler(continuation: continuation))
                }
            }
            .connect(unixDomainSocketPath: path)
            .get()
        return LineConnection(channel: channel, events: events)
    }

    /// Writes `line` and a `\n`.
    func send(_ line: [UInt8]) {
        var buffer = channel.allocator.buffer(capacity: line.count + 1)
        buffer.writeBytes(line)
        buffer.writeInteger(UInt8(ascii: "\n"))
        channel.writeAndFlush(buffer, promise: nil)
    }

    func close() {
        channel.close(promise: nil)
    }
}
