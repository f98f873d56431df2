import NIOConcurrencyHelpers
import SesameLocalAPI

/// One connection's role: what `[access]` gave its peer when it connected, raised by the
/// grants that apply to it (``AccessRequests``), and lowered again when one is revoked.
final class ConnectionAccess: Sendable {
    let peer: PeerCredentials
    /// The role `[access]` gives the peer.
    let configured: LocalAPIRole
    let output: ConnectionOutput
    /// Grant id → the role it gives this connection.
    private let grants = NIOLockedValueBox<[String: LocalAPIRole]>([:])

    init(peer: PeerCredentials, configured: LocalAPIRole, output: ConnectionOutput) {
        self.peer = peer
        self.configured = configured
        self.output = output
    }

    /// The role now: the configured one or a granted one, whichever is higher.
    var role: LocalAPIRole {
        grants.withLockedValue { grants in grants.values.reduce(configured) { max($0, $1) } }
    }

    func grant(_ id: String, role: LocalAPIRole) { grants.withLockedValue { $0[id] = role } }

    /// False when the connection did not hold it.
    func revoke(_ id: String) -> Bool { grants.withLockedValue { $0.removeValue(forKey: id) != nil } }

    var id: ObjectIdentifier { ObjectIdentifier(self) }
}
