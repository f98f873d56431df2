import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import SesameCore
import SesameLocalAPI
import SesameService

/// Turns a request from a caller into its answer: decoded once, authorised per method from the
/// caller's role, and answered on the event loop from the published state when the method
/// allows (``plan(_:id:caller:)``); the rest goes to the service (``LocalAPIService``).
struct LocalAPIDispatcher: Sendable {
    let service: any LocalAPIService
    let hub: SubscriptionHub
    let instance: String
    let version: String
    /// Forced refreshes of readers, one per uid per interval.
    let forcedRefreshes: NIOLockedValueBox<ForcedRefreshLimiter>
    /// Programs' requests for a role and the grants (consent).
    let accessRequests: AccessRequests
    /// The service's clock: the one "now" for token freshness, here and in the service.
    var now: @Sendable () -> Date { service.now }

    /// Who sent a request.
    struct Caller: Sendable {
        let access: ConnectionAccess
        var peer: PeerCredentials { access.peer }
        /// The role now: the configured one, or a granted higher one.
        var role: LocalAPIRole { access.role }
        var output: ConnectionOutput { access.output }
    }

    /// What to do with a request.
    enum Plan {
        /// Answered already (or queued, for `subscribe`): nothing more to do.
        case answered
        /// Answer this now.
        case respond(SplicedResponse)
        /// Answer after the session service replied: ``execute(_:method:)`` this call.
        case later(LocalAPICall, LocalAPIMethod)
        /// Answer when this completes (an access request waiting for a manager).
        case waiting(EventLoopFuture<SplicedResponse>)
    }

    /// Decodes the request's method and parameters once, role first, so a caller without the
    /// role learns nothing about the parameters. The result depends on the request's bytes and
    /// the caller's role only: a connection may keep it for the same line with another id.
    func decode(_ request: LocalAPIRequest, caller: Caller) -> Result<TypedCall, LocalAPIError> {
        guard let method = LocalAPIMethod(rawValue: request.method) else {
            return .failure(.methodNotFound(request.method))
        }
        if caller.role < method.requiredRole {
            return .failure(.permissionDenied(requiredRole: method.requiredRole))
        }
        do throws(LocalAPIError) {
            var call = try LocalAPICall.decode(method, request.params)
            // Only a manager may replace (so cancel) the open second-factor challenge.
            if case .confirmPasswordReset(let proof, let email, let newPassword, _) = call, caller.role >= .manager {
                call = .confirmPasswordReset(
                    proof: proof, email: email, newPassword: newPassword, replacingChallenge: true)
            }
            return .success(TypedCall(call: call, method: method))
        } catch {
            return .failure(error)
        }
    }

    /// A decoded call and its method.
    struct TypedCall: Sendable {
        var call: LocalAPICall
        var method: LocalAPIMethod
    }

    /// Answers on the event loop what ``LocalAPIMethod/venue`` allows; the rest is `.later`
    /// for ``execute(_:method:)``.
    /// - Parameter id: the request's id, as its bytes on the wire (valid during the call).
    func plan(_ typed: TypedCall, id: UnsafeRawBufferPointer, caller: Caller) -> Plan {
        let (call, method) = (typed.call, typed.method)
        if method.venue == .service { return .later(call, method) }
        switch call {
        case .hello:
            let hello = WireHello(
                version: version, instance: instance, role: caller.role, peerUid: caller.peer.uid,
                peerGid: caller.peer.gid, peerPid: caller.peer.pid, backend: service.backendName)
            return .respond(.success(hello.json))
        case .getState:
            return .respond(hub.answers.state(for: caller.role))
        case .subscribe(let events, let migrator):
            if migrator && caller.role < .manager {
                return .respond(.failure(.permissionDenied(requiredRole: .manager)))
            }
            guard
                hub.subscribe(
                    output: caller.output, role: caller.role, requestID: Array(id), events: events, migrator: migrator)
            else {
                return .respond(
                    .failure(
                        .invalidParams(
                            "A connection holds at most \(ProtocolLimits.maximumSubscriptionsPerConnection) subscriptions; unsubscribe one first."
                        )))
            }
            return .answered
        case .unsubscribe(let subscription):
            guard hub.unsubscribe(output: caller.output, subscription: subscription) else {
                return .respond(
                    .failure(
                        .invalidParams("There is no subscription \"\(subscription.prefix(64))\" on this connection.")))
            }
            return .respond(.success(.object([:])))
        case .getIdToken(let minValidity, var force, let uid):
            let answers = hub.answers
            if let uid, uid != answers.uid, caller.role < .manager {
                return .respond(.failure(.permissionDenied(requiredRole: .manager)))
            }
            // A reader forces at most one refresh per interval; sooner, it is asked as if not forced.
            if force, caller.role < .manager {
                let time = now()
                force = forcedRefreshes.withLockedValue { $0.allow(caller.peer.uid, at: time) }
                if !force {
                    return plan(
                        TypedCall(
                            call: .getIdToken(minValidity: minValidity, forceRefresh: false, uid: uid), method: method),
                        id: id, caller: caller)
                }
            }
            // The fast path: the held token, when it stays valid long enough, is answered with
            // the bytes serialised when it was published; a refresh, a guest token or an
            // error is the service's.
            if !force, uid == nil || uid == answers.uid, let token = answers.token,
                token.isFresh(for: minValidity, at: now())
            {
                return .respond(token.answer)
            }
            return .later(call, method)
        case .requestAccess(let role, let reason):
            return accessRequests.request(
                role: LocalAPIRole(rawValue: role) ?? .manager, reason: reason, from: caller.access)
        case .answerAccessRequest(let requestId, let allow, let remember):
            return .respond(
                accessRequests.answer(
                    requestId, allow: allow, remember: AccessGrant.Remember(rawValue: remember) ?? .connection))
        case .listAccessGrants:
            return .respond(accessRequests.grants())
        case .revokeAccessGrant(let grantId):
            return .respond(accessRequests.revoke(grantId))
        default:
            return .later(call, method)
        }
    }

    static func tokenJSON(_ token: IDToken, uid: String) -> JSONValue {
        WireIdToken(
            token: token.rawValue, uid: uid, expiresAt: token.expiresAt, issuedAt: token.issuedAt,
            signInProvider: token.signInProvider
        ).json
    }
}
