import NIOCore
import SesameLocalAPI

/// One request line as the connection handler sees it.
enum RequestLine {
    case line([UInt8])
    /// A line longer than the limit (or a run of bytes that long without `\n`).
    case tooLarge
}

/// Splits the byte stream at `\n` and caps the line length, so a client can make the daemon
/// buffer at most `maximumLineBytes` (+1 for the newline) per connection.
///
///     {"jsonrpc":"2.0","id":1,"method":"getState"}\n{"jsonrpc":…
///     └──────────────── one line ────────────────┘
struct RequestLineDecoder: ByteToMessageDecoder {
    typealias InboundOut = RequestLine

    let maximumLineBytes: Int
    /// Once a line was too large, nothing more is decoded: the connection closes.
    private var failed = false

    init(maximumLineBytes: Int = ProtocolLimits.maximumRequestLineBytes) {
        self.maximumLineBytes = maximumLineBytes
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        if failed {
            buffer.moveReaderIndex(to: buffer.writerIndex)
            return .needMoreData
        }
        let view = buffer.readableBytesView
        if let newline = view.firstIndex(of: UInt8(ascii: "\n")) {
            let length = newline - view.startIndex
            if length > maximumLineBytes {
                failed = true
                buffer.moveReaderIndex(to: buffer.writerIndex)
                context.fireChannelRead(wrapInboundOut(.tooLarge))
                return .needMoreData
            }
            let bytes = buffer.readBytes(length: length) ?? []
            buffer.moveReaderIndex(forwardBy: 1)
            context.fireChannelRead(wrapInboundOut(.line(bytes)))
            return .continue
        }
        if view.count > maximumLineBytes {
            failed = true
            buffer.moveReaderIndex(to: buffer.writerIndex)
            context.fireChannelRead(wrapInboundOut(.tooLarge))
        }
        return .needMoreData
    }

    mutating func decodeLast(
        context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool
    ) throws
        -> DecodingState
    {
        // A last line without `\n` at EOF is not a complete request: drop it.
        buffer.moveReaderIndex(to: buffer.writerIndex)
        return .needMoreData
    }
}
