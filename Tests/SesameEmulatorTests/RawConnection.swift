import Foundation
import NIOCore
import NIOPosix
import SesameLocalAPI

/// One raw TCP exchange with a port: what came back and how the connection ended. Used where an
/// HTTP client would hide the difference between a closed and a reset connection.
struct RawExchange: Sendable {
    enum End: Sendable, Equatable {
        /// The server closed the connection (FIN).
        case closed
        /// The server reset the connection (RST).
        case reset
        /// Any other failure, described.
        case failed(String)
    }

    var received: [UInt8]
    var end: End

    /// Sends `request` verbatim to `127.0.0.1:port` and reads until the server ends the connection.
    /// `source`: the local address to connect from (another loopback address is another client).
    static func send(_ request: String, port: Int, from source: String? = nil) async throws -> RawExchange {
        var bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        if let source { bootstrap = bootstrap.bind(to: try SocketAddress(ipAddress: source, port: 0)) }
        let channel =
            try await bootstrap
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: request))
            var received: [UInt8] = []
            do {
                for try await chunk in inbound { received += Array(chunk.readableBytesView) }
                return RawExchange(received: received, end: .closed)
            } catch let error as IOError where error.errnoCode == ECONNRESET {
                return RawExchange(received: received, end: .reset)
            } catch {
                return RawExchange(received: received, end: .failed("\(error)"))
            }
        }
    }
}
