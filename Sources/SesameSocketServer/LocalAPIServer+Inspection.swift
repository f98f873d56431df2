import NIOConcurrencyHelpers
import NIOCore

extension LocalAPIServer {
    /// One open connection as its channel sees it.
    struct ConnectionState: Sendable {
        /// The connection reads (it is not paused by a bound).
        var reading: Bool
        /// Bytes written to the channel and not yet taken by the socket.
        var unwritten: Int
    }

    /// Every open connection's state, for tests and diagnostics.
    func connectionStates() async throws -> [ConnectionState] {
        var states: [ConnectionState] = []
        for channel in connections.withLockedValue({ Array($0.values) }) {
            do {
                let reading = try await channel.getOption(ChannelOptions.autoRead).get()
                let unwritten = try await channel.getOption(ChannelOptions.bufferedWritableBytes).get()
                states.append(ConnectionState(reading: reading, unwritten: unwritten))
            } catch ChannelError.ioOnClosedChannel {
                // It closed between the listing and the question: no longer a connection.
            }
        }
        return states
    }
}
