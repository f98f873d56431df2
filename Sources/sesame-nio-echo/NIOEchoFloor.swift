import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#endif

/// `make bench`'s second floor: the least a SwiftNIO server can do per line, to tell what the
/// daemon costs beyond NIO itself. One event loop, one handler: each request line is answered
/// with a line of `size` bytes, all the answers of a read burst in one write, as `sesamed`
/// writes them. No parsing, no lock, no dispatch.
///
///     sesame-nio-echo PATH SIZE     (prints "listening" once it accepts)
@main
enum NIOEchoFloor {
    static func main() throws {
        let arguments = CommandLine.arguments
        let usage = """
            usage: sesame-nio-echo SOCKET-PATH ANSWER-BYTES
            Answers every line on SOCKET-PATH with ANSWER-BYTES bytes: make bench's SwiftNIO floor.
            """
        if arguments.count == 2, ["-h", "--help"].contains(arguments[1]) {
            print(usage)
            exit(0)
        }
        guard arguments.count == 3, let size = Int(arguments[2]), size > 0 else {
            let text = Array((usage + "\n").utf8)
            _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            exit(64)
        }
        var line = [UInt8](repeating: UInt8(ascii: "x"), count: size)
        line[size - 1] = UInt8(ascii: "\n")
        let answer = line
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let channel = try ServerBootstrap(group: group)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(EchoHandler(answer: answer))
                }
            }
            .bind(unixDomainSocketPath: arguments[1], cleanupExistingSocketFile: true).wait()
        // Unbuffered, so the benchmark sees it at once.
        let ready = Array("listening\n".utf8)
        _ = ready.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        try channel.closeFuture.wait()
    }
}

final class EchoHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let answer: [UInt8]
    private var lines = 0

    init(answer: [UInt8]) { self.answer = answer }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        unwrapInboundIn(data).withUnsafeReadableBytes { bytes in
            for byte in bytes where byte == UInt8(ascii: "\n") { lines += 1 }
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        guard lines > 0 else { return }
        var buffer = context.channel.allocator.buffer(capacity: answer.count * lines)
        for _ in 0..<lines { buffer.writeBytes(answer) }
        lines = 0
        context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
    }
}
