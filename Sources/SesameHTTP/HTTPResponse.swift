import NIOCore
import NIOHTTP1

/// The complete answer to an ``HTTPRequest``: status, headers and the whole body.
public struct HTTPResponse: Sendable, Equatable, CustomStringConvertible {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: ByteBuffer

    public init(status: Int, headers: HTTPHeaders = [:], body: ByteBuffer = ByteBuffer()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response with a UTF-8 text body (tests).
    public init(status: Int, headers: HTTPHeaders = [:], text: String) {
        self.init(status: status, headers: headers, body: ByteBuffer(string: text))
    }

    /// Status and size only: bodies carry tokens.
    public var description: String { "HTTP \(status) (\(body.readableBytes) bytes)" }

    /// The body's bytes.
    public var bytes: [UInt8] { Array(body.readableBytesView) }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }
}
