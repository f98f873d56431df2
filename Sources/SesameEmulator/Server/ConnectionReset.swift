import Foundation
import NIOCore

/// Fault `reset`: ends a connection with a TCP RST instead of an answer.
enum ConnectionReset {
    /// Sets `SO_LINGER` to zero, so closing sends RST rather than FIN, then closes.
    static func reset(_ channel: any Channel) async {
        if let provider = channel as? any SocketOptionProvider {
            try? await provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
        }
        try? await channel.close(mode: .all)
    }
}
