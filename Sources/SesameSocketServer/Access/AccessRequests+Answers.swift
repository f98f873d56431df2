import Foundation
import NIOConcurrencyHelpers
import NIOCore
import SesameLocalAPI

extension AccessRequests {
    /// `answerAccessRequest`: the requesting connection gets the role (and, remembered, the
    /// program's later connections), or the request is refused.
    func answer(_ requestId: String, allow: Bool, remember: AccessGrant.Remember) -> SplicedResponse {
        let time = now()
        enum Outcome {
            case unknown
            case answered(Open, [SesameAccessRequest], save: [AccessGrant]?)
        }
        let outcome = state.withLockedValue { state -> Outcome in
            guard let open = state.open.removeValue(forKey: requestId) else { return .unknown }
            var save: [AccessGrant]? = nil
            if allow {
                let peer = open.access.peer
                let user = open.wire.user
                let own = AccessGrant(
                    grantId: "g-" + Self.randomHex(), role: open.role, remember: .connection, uid: peer.uid,
                    user: user, executable: peer.process.executable, file: peer.process.executableFile, pid: peer.pid,
                    grantedAt: time)
                state.grants[own.grantId] = own
                state.connectionGrants[open.access.id, default: []].append(own.grantId)
                open.access.grant(own.grantId, role: open.role)
                // Only a program whose executable the daemon read can be recognised again.
                if remember != .connection, open.program.executable != nil {
                    var kept = own
                    kept.grantId = "g-" + Self.randomHex()
                    kept.remember = remember
                    kept.pid = nil
                    state.grants[kept.grantId] = kept
                    open.access.grant(kept.grantId, role: open.role)
                    if remember == .always { save = state.grants.values.filter { $0.remember == .always } }
                }
            }
            return .answered(open, Self.list(state), save: save)
        }
        guard case .answered(let open, let list, let save) = outcome else {
            return .failure(Self.noSuchRequest(requestId))
        }
        open.timer?.cancel()
        if let save { persist(save) }
        hub.updateRole(of: open.access.output, to: open.access.role)
        hub.publishAccessRequests(list)
        open.promise.succeed(allow ? Self.granted(open.access.role) : .failure(Self.refused(open.role, "was denied")))
        return .success(.object([:]))
    }

    /// `listAccessGrants`: every grant, the connections' and the remembered ones.
    func grants() -> SplicedResponse {
        let grants = state.withLockedValue { state in
            state.grants.values.sorted { ($0.grantedAt, $0.grantId) < ($1.grantedAt, $1.grantId) }
        }
        return .success(.object(["grants": .array(grants.map(\.wire.json))]))
    }

    /// `revokeAccessGrant`: forgotten, and every open connection that held it falls back.
    func revoke(_ grantId: String) -> SplicedResponse {
        let outcome = state.withLockedValue { state -> (lowered: [ConnectionAccess], save: [AccessGrant]?)? in
            guard let grant = state.grants.removeValue(forKey: grantId) else { return nil }
            let lowered = state.connections.values.filter { $0.revoke(grantId) }
            let save = grant.remember == .always ? state.grants.values.filter { $0.remember == .always } : nil
            return (lowered, save)
        }
        guard let outcome else {
            return .failure(Self.noSuchGrant(grantId))
        }
        if let save = outcome.save { persist(save) }
        for access in outcome.lowered { hub.updateRole(of: access.output, to: access.role) }
        return .success(.object([:]))
    }

    /// Writes the `always` grants; a failure keeps them for this boot and is not the caller's.
    private func persist(_ grants: [AccessGrant]) {
        try? store?.save(grants)
    }
}
