import Foundation
import Logging
import NIOConcurrencyHelpers
import SesameCore
import SesameLocalAPI
import SesameService

/// Turns a request from a caller into a call of the session service and its answer.
///
/// Authorisation happens here, per method, from the caller's role. Domain errors become wire
/// errors at this edge; anything unexpected is `-32603` and logged, never sent in detail.
struct LocalAPIDispatcher: Sendable {
    let service: SessionService
    let hub: SubscriptionHub
    let instance: String
    let version: String
    let usernamesEnabled: Bool
    let logger: Logger
    /// Forced refreshes of readers, one per uid per interval.
    let forcedRefreshes: NIOLockedValueBox<ForcedRefreshLimiter>
    /// The service's clock: the one "now" for token freshness, here and in the service.
    var now: @Sendable () -> Date { service.now }

    /// Who sent a request.
    struct Caller: Sendable {
        var peer: PeerCredentials
        var role: LocalAPIRole
        var output: ConnectionOutput
    }

    /// What to do with a request.
    enum Plan {
        /// Answered already (or queued, for `subscribe`): nothing more to do.
        case answered
        /// Answer this now.
        case respond(SplicedResponse)
        /// Answer after the session service replied: ``execute(_:method:)`` this call.
        case later(LocalAPICall, LocalAPIMethod)
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
        default:
            return .later(call, method)
        }
    }

    /// Runs a call that needs the session service and returns its answer. The notifications
    /// the call caused are queued already: the service hands each event to the hub in the actor
    /// turn that makes it (``SessionService/publish(to:)``), so they go out before the answer.
    func execute(_ call: LocalAPICall, method: LocalAPIMethod) async -> SplicedResponse {
        do {
            return .success(try await run(call))
        } catch let error as LocalAPIError {
            return .failure(error)
        } catch let error as AuthError {
            logger.debug(
                "Request failed", metadata: ["method": "\(method.rawValue)", "reason": "\(error.reason.rawValue)"])
            return .failure(error.wire)
        } catch {
            logger.error("Internal error", metadata: ["method": "\(method.rawValue)", "error": "\(type(of: error))"])
            return .failure(.internalError)
        }
    }

    func outcomeJSON(_ outcome: SessionService.SignInOutcome) -> JSONValue {
        .object(["state": outcome.state.wire.json, "merge": outcome.merge.map { $0.wire.json } ?? .null])
    }

    /// Runs the methods of the session itself (``run(_:)`` registers them).
    func runSession(_ call: LocalAPICall) async throws -> JSONValue {
        switch call {
        case .getIdToken(let minValidity, let force, let uid):
            let issued = try await service.tokens.idToken(minValidity: minValidity, forceRefresh: force, uid: uid)
            return Self.tokenJSON(issued.idToken, uid: issued.uid)
        case .signInAnonymously:
            return (try await service.accounts.signInAnonymously()).wire.json
        case .signOut(let reset):
            return (try await service.accounts.signOut(reset: reset)).wire.json
        case .deleteAccount:
            return (try await service.accounts.deleteAccount()).wire.json
        case .reload:
            return (try await service.accounts.reload()).wire.json
        case .updateProfile(let displayName):
            return (try await service.accounts.updateProfile(displayName: displayName)).wire.json
        case .createAccount(let email, let password, let username):
            return (try await service.accounts.createAccount(email: email, password: password, username: username)).wire
                .json
        case .signIn(let identifier, let password):
            return outcomeJSON(try await service.accounts.signIn(identifier: identifier, password: password))
        case .sendSignInLink(let email, let continueUrl):
            let sent = try await service.accounts.sendSignInLink(email: email, continueUrl: continueUrl)
            return .object(["email": .string(sent)])
        case .completeSignInLink(let proof, let email):
            return outcomeJSON(try await service.accounts.completeSignInLink(proof, email: email))
        case .signInWithIdp(let providerId, let idToken, let accessToken):
            return outcomeJSON(
                try await service.accounts.signInWithIdp(
                    providerId: providerId, idToken: idToken, accessToken: accessToken))
        case .linkCredential(let credential):
            return (try await service.accounts.linkCredential(credential)).wire.json
        case .unlink(let providerId):
            return (try await service.accounts.unlink(providerId: providerId)).wire.json
        case .sendPasswordReset(let identifier):
            try await service.accounts.sendPasswordReset(identifier: identifier)
            return .object([:])
        case .sendEmailVerification:
            try await service.accounts.sendEmailVerification()
            return .object([:])
        case .completeMerge(let mergeId):
            return (try await service.accounts.completeMerge(mergeId: mergeId)).wire.json
        case .setUsername(let username):
            return (try await service.usernames.setUsername(username)).wire.json
        case .checkUsername(let username):
            let check = try await service.usernames.checkUsername(username)
            var result: [String: JSONValue] = ["username": .string(username), "available": .bool(check.available)]
            if let reason = check.reason { result["reason"] = .string(reason.rawValue) }
            return .object(result)
        default:
            throw LocalAPIError.internalError
        }
    }

    /// Runs the methods of PROTOCOL.md's "Sign-in flows" and "Provisioning".
    func runSignInFlows(_ call: LocalAPICall) async throws -> JSONValue {
        switch call {
        case .startSignIn(let request):
            return (try await service.signIn.start(request)).wire.json
        case .completeSignIn(let flowId, let callbackUrl):
            return outcomeJSON(try await service.signIn.complete(flowId: flowId, callbackUrl: callbackUrl))
        case .awaitSignIn(let flowId, let timeout):
            return outcomeJSON(try await service.signIn.wait(flowId: flowId, timeout: timeout))
        case .cancelSignIn(let flowId):
            try await service.signIn.cancel(flowId: flowId)
            return .object([:])
        case .signInWithCustomToken(let token):
            return outcomeJSON(try await service.signIn.withCustomToken(token))
        default:
            throw LocalAPIError.internalError
        }
    }

    static func tokenJSON(_ token: IDToken, uid: String) -> JSONValue {
        WireIdToken(
            token: token.rawValue, uid: uid, expiresAt: token.expiresAt, issuedAt: token.issuedAt,
            signInProvider: token.signInProvider
        ).json
    }
}
