import NIOConcurrencyHelpers
import SesameLocalAPI
import Synchronization

/// One connection's role: what `[access]` gave its peer when it connected, raised by the
/// grants that apply to it (``AccessRequests``), and lowered again when one is revoked.
final class ConnectionAccess: Sendable {
    let peer: PeerCredentials
    /// The role `[access]` gives the peer.
    let configured: LocalAPIRole
    let output: ConnectionOutput
    /// Grant id → the role it gives this connection.
    private let grants = NIOLockedValueBox<[String: LocalAPIRole]>([:])
    /// ``role``, kept by every change of `grants` under its lock: it is read on every request,
    /// with one atomic load.
    private let current: Synchronization.Atomic<UInt8>

    init(peer: PeerCredentials, configured: LocalAPIRole, output: ConnectionOutput) {
        self.peer = peer
        self.configured = configured
        self.output = output
        current = Synchronization.Atomic(Self.code(configured))
    }

    /// The role now: the configured one or a granted one, whichever is higher.
    var role: LocalAPIRole { Self.roles[Int(current.load(ordering: .acquiring))] }

    func grant(_ id: String, role: LocalAPIRole) {
        grants.withLockedValue { grants in
            grants[id] = role
            settle(grants)
        }
    }

    /// False when the connection did not hold it.
    func revoke(_ id: String) -> Bool {
        grants.withLockedValue { grants in
            defer { settle(grants) }
            return grants.removeValue(forKey: id) != nil
        }
    }

    private func settle(_ grants: [String: LocalAPIRole]) {
        current.store(Self.code(grants.values.reduce(configured) { max($0, $1) }), ordering: .releasing)
    }

    private static let roles = LocalAPIRole.allCases
    private static func code(_ role: LocalAPIRole) -> UInt8 { UInt8(roles.firstIndex(of: role)!) }

    var id: ObjectIdentifier { ObjectIdentifier(self) }
}
