import Foundation
import NIOConcurrencyHelpers
import NIOCore
import SesameLocalAPI

/// Consent (docs/protocol.md, "Access"): a program asks for a role (`requestAccess`), the
/// managers see the request in `State.accessRequests` and answer it (`answerAccessRequest`),
/// and what they granted applies to the connection at once and, remembered, to the program's
/// later connections (`listAccessGrants`, `revokeAccessGrant`).
///
/// The waiting is the request's promise, answered by the manager or by a timer of the
/// requesting connection's event loop at `expiresAt`; a connection that closes withdraws its
/// requests. At most one open request per program (its uid and executable file, or its process
/// when the executable could not be read), and ``Limits/maximumOpen`` in all. State changes
/// under the lock; promises, the hub and the connections' roles are told after it, in the
/// order a request's answer needs: the role first, then the list, then the answer.
final class AccessRequests: Sendable {
    struct Limits: Sendable {
        /// Seconds a request waits for an answer.
        var timeout: Double = 120
        var maximumOpen: Int = 16
    }

    struct Open {
        var wire: SesameAccessRequest
        var role: LocalAPIRole
        var program: Program
        var access: ConnectionAccess
        var promise: EventLoopPromise<SplicedResponse>
        var timer: Scheduled<Void>?
    }

    /// Who a request or a remembered grant is for.
    struct Program: Hashable {
        var uid: UInt32
        var executable: String?
        var file: FileIdentity?
        /// Only when the executable is unknown: then the process is the program.
        var pid: Int32?

        init(_ peer: PeerCredentials) {
            uid = peer.uid
            if let executable = peer.process.executable, let file = peer.process.executableFile {
                self.executable = executable
                self.file = file
            } else {
                pid = peer.pid
            }
        }
    }

    struct State {
        var open: [String: Open] = [:]
        /// Every grant: to connections, for the boot and always.
        var grants: [String: AccessGrant] = [:]
        /// The connections that are open, for applying and revoking grants.
        var connections: [ObjectIdentifier: ConnectionAccess] = [:]
        /// The grants that end with their connection.
        var connectionGrants: [ObjectIdentifier: [String]] = [:]
    }

    let state: NIOLockedValueBox<State>
    let hub: SubscriptionHub
    let limits: Limits
    let store: AccessGrantStore?
    let now: @Sendable () -> Date
    let directory: any AccountDirectory

    init(
        hub: SubscriptionHub, limits: Limits, store: AccessGrantStore?, now: @escaping @Sendable () -> Date,
        directory: any AccountDirectory = SystemAccountDirectory()
    ) {
        self.hub = hub
        self.limits = limits
        self.store = store
        self.now = now
        self.directory = directory
        var initial = State()
        for grant in store?.load() ?? [] { initial.grants[grant.grantId] = grant }
        state = NIOLockedValueBox(initial)
    }

    /// A new connection: the remembered grants for its program apply to it.
    func attach(_ access: ConnectionAccess) {
        state.withLockedValue { state in
            state.connections[access.id] = access
            for grant in state.grants.values where grant.applies(to: access.peer) {
                access.grant(grant.grantId, role: grant.role)
            }
        }
    }

    /// A closed connection: its open requests are withdrawn and its own grants end.
    func detach(_ access: ConnectionAccess) {
        let (withdrawn, list) = state.withLockedValue { state -> ([Open], [SesameAccessRequest]?) in
            state.connections[access.id] = nil
            for grantId in state.connectionGrants.removeValue(forKey: access.id) ?? [] { state.grants[grantId] = nil }
            let withdrawn = state.open.values.filter { $0.access === access }
            for open in withdrawn { state.open[open.wire.requestId] = nil }
            return (withdrawn, withdrawn.isEmpty ? nil : Self.list(state))
        }
        for open in withdrawn {
            open.timer?.cancel()
            open.promise.succeed(.failure(.permissionDenied(requiredRole: open.role)))
        }
        if let list { hub.publishAccessRequests(list) }
    }

    /// `requestAccess` from `access`: answered at once when the connection has the role already
    /// or a remembered grant gives it; refused when the program has a request open or too many
    /// are; else opened, and the answer comes when a manager decides or the request expires.
    func request(role: LocalAPIRole, reason: String?, from access: ConnectionAccess) -> LocalAPIDispatcher.Plan {
        let program = Program(access.peer)
        let eventLoop = access.output.channel.eventLoop
        let identity = directory.identity(of: access.peer)
        enum Outcome {
            case answer(SplicedResponse)
            case opened(EventLoopFuture<SplicedResponse>, [SesameAccessRequest])
        }
        let outcome = state.withLockedValue { state -> Outcome in
            for grant in state.grants.values where grant.applies(to: access.peer) {
                access.grant(grant.grantId, role: grant.role)
            }
            if access.role >= role { return .answer(Self.granted(access.role)) }
            if state.open.values.contains(where: { $0.program == program }) {
                return .answer(.failure(Self.alreadyAsked))
            }
            if state.open.count >= limits.maximumOpen { return .answer(.failure(Self.tooMany)) }
            let id = "ar-" + Self.randomHex()
            let process = access.peer.process
            let wire = SesameAccessRequest(
                requestId: id, role: role.rawValue, reason: reason.map { String($0.prefix(200)) }, uid: access.peer.uid,
                user: identity.userName, pid: access.peer.pid, executable: process.executable,
                unit: process.userUnit ?? process.unit, flatpakAppId: process.flatpakAppId,
                expiresAt: now().addingTimeInterval(limits.timeout))
            let promise = eventLoop.makePromise(of: SplicedResponse.self)
            let timer = eventLoop.scheduleTask(in: .nanoseconds(Int64(limits.timeout * 1e9))) { [weak self] in
                guard let self else { return }
                self.expire(id)
            }
            state.open[id] = Open(
                wire: wire, role: role, program: program, access: access, promise: promise, timer: timer)
            return .opened(promise.futureResult, Self.list(state))
        }
        switch outcome {
        case .answer(let answer):
            hub.updateRole(of: access.output, to: access.role)
            return .respond(answer)
        case .opened(let future, let list):
            hub.publishAccessRequests(list)
            return .waiting(future)
        }
    }

    /// A request nobody answered in time: refused.
    private func expire(_ id: String) {
        let (expired, list) = state.withLockedValue { state -> (Open?, [SesameAccessRequest]) in
            let expired = state.open.removeValue(forKey: id)
            return (expired, Self.list(state))
        }
        guard let expired else { return }
        hub.publishAccessRequests(list)
        expired.promise.succeed(.failure(Self.refused(expired.role, "was not answered in time")))
    }

    static func list(_ state: State) -> [SesameAccessRequest] {
        state.open.values.map(\.wire).sorted { ($0.expiresAt, $0.requestId) < ($1.expiresAt, $1.requestId) }
    }

    static func granted(_ role: LocalAPIRole) -> SplicedResponse { .success(.object(["role": .string(role.rawValue)])) }

    static func refused(_ role: LocalAPIRole, _ how: String) -> LocalAPIError {
        LocalAPIError(
            code: .permission, reason: "permission-denied",
            message: "The request for the \(role.rawValue) role \(how); a manager may allow it with sesamectl access.",
            data: ["requiredRole": .string(role.rawValue)])
    }

    static let alreadyAsked = LocalAPIError(
        code: .state, reason: "operation-in-progress",
        message: "This program has a request for access open already; wait for its answer.")

    static let tooMany = LocalAPIError(
        code: .state, reason: "operation-in-progress",
        message: "Too many programs wait for an answer to a request for access; try again later.")

    static func noSuchRequest(_ id: String) -> LocalAPIError {
        LocalAPIError(
            code: .state, reason: "no-such-access-request",
            message: "There is no open access request \"\(id.prefix(64))\"; it was answered, expired or withdrawn.")
    }

    static func noSuchGrant(_ id: String) -> LocalAPIError {
        LocalAPIError(
            code: .state, reason: "no-such-access-grant",
            message: "There is no access grant \"\(id.prefix(64))\"; sesamectl access lists them.")
    }

    static func randomHex() -> String {
        (0..<12).map { _ in String(UInt8.random(in: 0...255), radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }
            .joined()
    }
}
